// Table rows for refusals of the sender, the sending host and its rate (part of the table in
// status-patterns.ts): sender addresses, block lists, reputation, reverse DNS, SPF/DKIM/DMARC.
import type { StatusPattern } from './pattern-row';
import { row } from './pattern-row';

export const SENDER_PATTERNS: readonly StatusPattern[] = [
  // The sender or its domain is refused (RFC 3463 X.1.7, X.1.8).
  row(
    'rejected',
    /\bsender (?:address |email address |domain )?(?:rejected|was rejected|is blacklisted|has been blacklisted|not pre-approved|is spammer|is in my black list)\b/,
    '501 5.1.8 Sender address rejected',
  ),
  row(
    'rejected',
    /\binvalid sender\b|\bsender verify failed\b|\bunroutable sender address\b|\bdomain of sender address \S+ does not (?:exist|resolve)/,
    '550 Unroutable sender address',
  ),
  row(
    'rejected',
    /\b(?:null|empty envelope) senders? (?:is |are )?not allowed\b|\bbogus mail from\b|\bno third-party dsns\b|\bunsigned dsn\b/,
    '550 Null sender is not allowed',
  ),
  row(
    'rejected',
    /\bbatv\b|\breturned mail not accepted here\b|\bbackscatter protection\b/,
    '553 Recipient not accepted. (BATV: no tag)',
  ),
  row(
    'rejected',
    /\bmail from not owned by user\b|\bemail address is not verified\b|\bfully qualified email address required\b/,
    'Message rejected: Email address is not verified.',
  ),
  row(
    'rejected',
    /\bnot allowed to post to this (?:mailing )?list\b|\bsender isn't on the recipient's list of senders\b|\bnot have permission to post messages to the group\b/,
    'You are not allowed to post to this mailing list',
  ),
  row(
    'rejected',
    /\bthis server does not accept mail from\b|\byour (?:email )?address has been blacklisted\b|\bsending to\/from an address that has been blacklisted\b/,
    'Your email address has been blacklisted',
  ),
  row(
    'rejected',
    /\b(?<!recipient |sender ip |5\.1\.0 )address rejected\b|\badministrative prohibition\b|\benvelope blocked\b/,
    '550 Administrative prohibition',
  ),
  row(
    'rejected',
    /\bdelivery not authorized, message refused\b|\baccess denied \((?:in reply to mail from command|sender blacklisted)\)/,
    '550 5.7.1 Delivery not authorized, message refused',
  ),
  row(
    'rejected',
    /\bcan't determine purported responsible address\b|\bdoes not exist e2110\b|\bemetteur invalide\b|\bis not a registered gateway user\b/,
    "550 Can't determine Purported Responsible Address",
  ),
  row(
    'rejected',
    /\bsender domain (?:is empty|must exist|not found)\b|\bsender (?:address )?(?:domain )?(?:does not exist|unknown)\b/,
    '553 5.1.8 Sender domain must exist',
  ),

  // The sending host: block lists, reputation, reverse DNS (RFC 3463 X.7.1, RFC 7372).
  row(
    'blocked',
    /\bblocked using\b|\bblacklisted by\b|\b(?:dns)?rbl\b|\bdnsbl\b|\bspamhaus\b|\bspamcop\b|\bbarracudacentral\b|\babuseat\.org\b/,
    '554 5.7.1 Service unavailable; Client host [192.0.2.1] blocked using zen.spamhaus.org',
  ),
  row(
    'blocked',
    /\b(?:blocked|refused) - see http|\bon our block ?list\b|\bis in an? black ?list\b|\bblock ?listed\b|\bblacklisted\b/,
    'Refused - see http://www.example.org/blocks.html',
  ),
  row(
    'blocked',
    /\bclient host (?:\S+ )?(?:rejected|blocked)\b|\bhelo command rejected\b|\bsender ip address rejected\b|\bbad sender ip address\b/,
    'Client host rejected: Access denied',
  ),
  row(
    'blocked',
    /\byour (?:ip|network|server|host)(?: address)?(?: \S+)? (?:is|has been) (?:\S+ )?(?:listed|blocked|banned|blacklisted|rejected)\b/,
    'Your IP address is listed in the RBL',
  ),
  row(
    'blocked',
    /\b(?:ip|ip address|server ip|mail server at) \S+ (?:is )?(?:blocked|listed as abusive|is blacklisted)\b|\bbanned sending ip\b/,
    'IP 192.0.2.1 is blocked by EarthLink',
  ),
  row(
    'blocked',
    /\bdynamic ip|\bdynamic\/zombied|\bgeneric (?:dns|reverse)\b|\bplease use the smtp server of your isp\b|\buse your (?:isp|provider)'s (?:smtp|mail) server\b/,
    'Please use the smtp server of your ISP.',
  ),
  row(
    'blocked',
    /\bnot currently accepting mail from your ip\b|\byou are not allowed to connect\b|\bno access from mail server\b|\bgo away\b/,
    '550 Go away',
  ),
  row(
    'blocked',
    /\brejecting open proxy\b|\bsuspiciously like spammer\b|\btoo many (?:spams|unwanted messages) (?:have been sent )?from\b|\bhas been rejected based on blacklist\b/,
    'Rejecting open proxy',
  ),
  row(
    'blocked',
    /\bservice not available, closing transmission channel\b|\bconnection (?:dropped|reset by peer|refused by)\b|\bwas blocked by\b/,
    '421 Service not available, closing transmission channel',
  ),
  row(
    'blocked',
    /\btemporarily deferred due to user complaints\b|\bconfirm this mail server\b|\bservice refused, please try later\b/,
    '421 4.7.0 [TS01] Messages from 192.0.2.1 temporarily deferred due to user complaints',
  ),
  row(
    'badreputation',
    /\b(?:poor|bad|low|none\/bad) (?:email |ip |sender )?reputation\b|\b(?:ip|domain|ip\/domain) reputation\b|\bdeferred due to unexpected volume or user complaints\b/,
    '550 5.7.1 Our system has detected that this message is likely suspicious due to the very low reputation of the sending IP',
  ),
  row(
    'requireptr',
    /\bptr (?:record|resource record)\b|\breverse dns\b|\brdns\b|\breverse (?:dns )?lookup\b|\bip name lookup failed\b/,
    '554 5.7.1 Client host rejected: no PTR record found.',
  ),
  row(
    'requireptr',
    /\bcannot find your (?:reverse )?hostname\b|\bcannot resolve your address\b|\bunresolvable relay host name\b/,
    'Client host rejected: cannot find your hostname',
  ),
  row(
    'requireptr',
    /\bforward dns entry does not point to the sending ip\b|\bdomain \S+ mismatches client ip\b/,
    'The corresponding forward DNS entry does not point to the sending IP',
  ),
  row(
    'authfailure',
    /\bspf (?:check|validation|record|authentication)?:? ?(?:fail|failed|failure|error)\b|\bsender policy framework\b|\bspf\.pobox\.com\b|\bbad spf records\b|\bspf settings\b/,
    '550 5.7.1 SPF check failed',
  ),
  row(
    'authfailure',
    /\bdmarc\b|\bdkim (?:signature )?(?:fail|failed|failure|invalid|verification)\b|\bnot allowed to send from <\S+ per it's spf record\b/,
    '550 5.7.1 Email rejected per DMARC policy',
  ),
  row(
    'authfailure',
    /\b(?:doesn't|does not) meet the (?:required )?authentication (?:level|requirements)\b|\bunauthenticated email\b|\bdoes not have authentication information\b|\bfails to pass authentication checks\b/,
    "The 5322.From address doesn't meet the authentication requirements defined for the sender",
  ),
  row(
    'norelaying',
    /\brelay(?:ing)? (?:access )?(?:denied|not permitted|prohibited)\b|\bno relaying\b|\bunable to relay\b|\b(?:not permitted|not allowed) to relay\b/,
    '554 5.7.1 <a@example.org>: Relay access denied',
  ),
  row(
    'norelaying',
    /\bas a relay\b|\bopen relay\b|\bnot a gateway\b|\bwe don't handle mail for\b|\brelaying mail to \S+ is not allowed\b|\bis not configured to relay mail\b/,
    'we do not relay, account limits apply as a relay',
  ),
  row(
    'norelaying',
    /\bisn't in my list of allowed rcpthosts\b|\bspecified domain is not allowed\b|\bsend to a non-local e-mail address\b|\bnot local host\b/,
    "553 sorry, that domain isn't in my list of allowed rcpthosts",
  ),
  row(
    'securityerror',
    /\bauthentication (?:required|failure|failed|credentials invalid)\b|\bunauthenticated senders not allowed\b|\bverification failure\b/,
    '530 5.7.0 Authentication required',
  ),
  row(
    'securityerror',
    /\bnot authorized to (?:send mail|perform ses:sendrawemail)\b|\baccount not subscribed to ses\b|\bexecutable files are not allowed\b/,
    'User is not authorized to perform ses:SendRawEmail on resource',
  ),

  // Rates and connections (RFC 3463 X.4.5, X.5.3).
  row(
    'toomanyconn',
    /\btoo many (?:connections|concurrent (?:smtp )?connections|smtp sessions|errors from your ip|recipients)\b|\bconnection rate limit exceeded\b/,
    '421 Too many concurrent SMTP connections',
  ),
  row(
    'toomanyconn',
    /\bconnection limit\b|\bfrequency limited\b|\bmax emails per hour\b|\bthrottling failure\b|\btrop de connexions\b|\bnumerous attempts to deliver\b/,
    'Throttling failure: Maximum sending rate exceeded',
  ),
  row(
    'speeding',
    /(?<!connection )\brate limit(?:ed)?\b|\bplease try again slower\b|\breceiving mail at a rate\b|\bsending (?:too fast|at a rate)\b/,
    '451 4.7.1 Please try again slower',
  ),

  // Further host, sender and relaying wordings.
  row(
    'blocked',
    /\bsaid: 550 blocked\b|\bconnection was dropped by remote host\b|\bcurrently sending spam\b|\byou are sending spam\b|\bextreme bad ip profile\b/,
    '550 Extreme bad IP profile',
  ),
  row(
    'blocked',
    /\besmtp not accepting connections\b|\bhost network not allowed\b|\binvalid ip for sending mail of domain\b|\bis not allowed to send mail from\b/,
    '554 ESMTP not accepting connections',
  ),
  row(
    'blocked',
    /\bno matches to nameserver query\b|\brejected - multi-blacklist\b|\bsender has not passed validation\b|\bserver access forbidden by your ip\b/,
    '550 Rejected - multi-blacklist',
  ),
  row(
    'blocked',
    /\bafter initial connection\b|\bsorry, that domain isn't in my list of allowed rcpthosts\b|\bto submit messages to this e-mail system has been rejected\b|\byour server requires confirmation\b|\bdomain does not exist:/,
    'SMTP error from remote mail server after initial connection: 554 no',
  ),
  row(
    'rejected',
    /\bwithout a valid sender domain\b|\bdenied \[bouncedeny\]|\bvalid-address-filter\b|\bsenderfilterconfig\b|\bfrom: domain is invalid\b|\binvalid domain, see <url:/,
    '550 Connections not accepted from servers without a valid sender domain',
  ),
  row(
    'rejected',
    /\bmx records for \S+ (?:violate|not found)|\brecipient addresses rejected : access denied\b|\brecursive cname records for\b|\brule imposed mailbox access for\b/,
    '553 Recipient addresses rejected : Access denied',
  ),
  row(
    'rejected',
    /\bsending this from a different address or alias\b|\bspam reporting address\b|\bsyntax error: empty email address\b/,
    "You're sending this from a different address or alias using the 'Send mail as' feature",
  ),
  row(
    'norelaying',
    /\binsecure mail relay\b|\brelaying mail to\b|\bthat domain isn't in my list of allowed rcpthost\b/,
    '550 Insecure mail relay',
  ),
  row(
    'requireptr',
    /\bmissing ptr records\b|\bgeneric dns ptr-records\b|\bunverifyable sending ips\b/,
    '550 We do not accept mail from IPs with missing PTR records',
  ),
  row(
    'securityerror',
    /\bauthentication turned on in your email client\b/,
    'Please make sure you have authentication turned on in your email client',
  ),
];

// Rows for messages a reporting system writes itself rather than relays: its own directory and
// routing decisions. They settle the reason wherever they appear (see StatusPattern.decisive).
// Rows marked 'sisimai' were checked against the message tables of Sisimai's Lhost modules
// (Exchange2003, Exchange2007, qmail, Exim) and its UserUnknown list; 'zonemta' against ZoneMTA's
// config/bounces.txt. Unmarked rows count as learned from the corpus (pattern-row.ts).
import type { StatusPattern } from './pattern-row';
import { sure } from './pattern-row';

export const MTA_OWN_PATTERNS: readonly StatusPattern[] = [
  // Microsoft Exchange / Office 365 NDR categories ("#550 5.1.1 RESOLVER.ADR.RecipNotFound; ...").
  sure(
    'userunknown',
    /\bresolver\.adr\.(?:ex)?recip(?:ient)? ?notfound\b/,
    '550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup',
    'sisimai',
  ),
  sure(
    'hostunknown',
    /\bsmtpsend\.dns\.nonexistentdomain\b/,
    '554 5.4.4 SMTPSEND.DNS.NonExistentDomain; nonexistent domain',
    'sisimai',
  ),
  sure(
    'networkerror',
    /\bsmtpsend\.dns\.mxloopback\b/,
    '554 5.4.4 SMTPSEND.DNS.MxLoopback; DNS records for the destination computer are misconfigured',
    'sisimai',
  ),
  sure(
    'systemerror',
    /\bresolver\.adr\.(?:badprimary|invalidinsmtp|ambiguous)\b/,
    '550 5.2.0 RESOLVER.ADR.BadPrimary',
    'sisimai',
  ),
  sure(
    'toomanyconn',
    /\bresolver\.adr\.reciplimit\b/,
    '550 5.5.3 RESOLVER.ADR.RecipLimit; too many recipients',
    'sisimai',
  ),
  sure(
    'securityerror',
    /\bresolver\.rst\.authrequired\b/,
    '550 5.7.1 RESOLVER.RST.AuthRequired; authentication required',
    'sisimai',
  ),
  sure(
    'rejected',
    /\bresolver\.rst\.notauthorized\b/,
    '550 5.7.1 RESOLVER.RST.NotAuthorized; not authorized',
    'sisimai',
  ),
  sure(
    'exceedlimit',
    /\bresolver\.rst\.recipsizelimit\b/,
    '550 5.2.3 RESOLVER.RST.RecipSizeLimit; message too large for this recipient',
  ),
  sure('expired', /\bqueue\.expired\b/, '550 4.4.7 QUEUE.Expired; message expired', 'sisimai'),
  sure(
    'userunknown',
    /\bthe recipient name is not recognized\b/,
    'The recipient name is not recognized',
    'sisimai',
  ),
  // Office 365 directory-based edge blocking: the recipient is not in the tenant's directory.
  sure(
    'userunknown',
    /\b5\.4\.1 .*recipient address rejected: access denied\b/,
    '550 5.4.1 Recipient address rejected: Access denied. AS(201806281)',
    'zonemta',
  ),

  // Google.
  sure(
    'userunknown',
    /\bemail account that you tried to reach does not exist\b|\baddress couldn't be found\b/,
    "Your message wasn't delivered to a@example.org because the address couldn't be found",
  ),
  sure(
    'hostunknown',
    /\bdns error: (?:domain name not found|dns server returned answer with no data)\b(?!.*\bnxdomain\b)/,
    'DNS Error: Domain name not found',
  ),
  sure(
    'notaccept',
    /\bdoesn't receive email according to the administrator\b/,
    "The domain example.org doesn't receive email according to the administrator: returned Null MX",
  ),

  // Postfix: its own recipient tables.
  sure(
    'userunknown',
    /\buser unknown in (?:local recipient|virtual alias|virtual mailbox|relay recipient) table\b/,
    'Recipient address rejected: User unknown in virtual alias table',
    'sisimai',
  ),

  // qmail (qmail-local, qmail-remote, qmail-ldap).
  sure(
    'userunknown',
    /\bno mailbox here by that name\b/,
    'Sorry, no mailbox here by that name. (#5.1.1)',
    'sisimai',
  ),
  sure(
    'hostunknown',
    /\bsorry, i couldn't find any host (?:named|by that name)\b/,
    "Sorry, I couldn't find any host named example.org. (#5.1.2)",
    'sisimai',
  ),
  sure(
    'notaccept',
    /\bsorry, i couldn't find a mail exchanger or ip address\b/,
    "Sorry, I couldn't find a mail exchanger or IP address. (#5.4.4)",
    'sisimai',
  ),
  sure(
    'networkerror',
    /\bsorry, i wasn't able to establish an smtp connection\b|\balthough i'm listed as a best-preference mx\b/,
    "Sorry, I wasn't able to establish an SMTP connection. (#4.4.1)",
    'sisimai',
  ),
  sure(
    'suspend',
    /\bmailaddress is administrativ\w* disabled\b/,
    'Mailaddress is administratively disabled. (#5.2.1)',
    'sisimai',
  ),
  sure(
    'exceedlimit',
    /\bthe message exee?ded the maximum size the user accepts\b/,
    'The message exeeded the maximum size the user accepts',
    'sisimai',
  ),
  sure(
    'systemerror',
    /\bldap (?:server|lookup|attribute)\b|\bhomedir creat|\bwhile executing qmail-forward\b/,
    'Temporary failure in LDAP lookup. (#4.4.3)',
    'sisimai',
  ),

  // Exim: router and transport messages (route.c, dnslookup.c, smtp.c, appendfile.c).
  sure(
    'hostunknown',
    /\ball host address lookups failed permanently\b|\ball relevant mx records point to non-existent hosts\b/,
    'all relevant MX records point to non-existent hosts',
    'sisimai',
  ),
  sure(
    'notaccept',
    /\bno host found for existing smtp connection\b/,
    'no host found for existing SMTP connection',
    'sisimai',
  ),
  sure(
    'syntaxerror',
    /\bangle-brackets nested too deep\b|\bexpected word or "<"|\bdomain missing in source-routed address\b|\bmalformed address:/,
    'malformed address: a@example.org may not follow <b',
    'sisimai',
  ),
  sure(
    'systemerror',
    /\bdelivery to (?:file|pipe) forbidden\b|\blmtp error after\b/,
    'delivery to pipe forbidden',
    'sisimai',
  ),
  sure(
    'contenterror',
    /\btoo many "received" headers\b/,
    'Too many "Received" headers - suspected mail loop',
    'sisimai',
  ),
  sure(
    'expired',
    /\bretry time not reached for any host after a long failure period\b|\ball hosts have been failing for a long time\b/,
    'all hosts have been failing for a long time and were last tried after this message arrived',
    'sisimai',
  ),

  // OpenSMTPD (mta.c, queue.c) and Courier (esmtpclient.c).
  sure(
    'notaccept',
    /\bdestination seem to reject all mails\b|\bno mx found for (?:domain|destination)\b/,
    'No MX found for domain',
  ),
  sure('hostunknown', /\binvalid domain name\b(?!.*\b5\.5\.4\b)/, 'a@example.org: Invalid domain name'),
  sure('securityerror', /\bcould not retrieve credentials\b/, 'Could not retrieve credentials'),
  sure('systemerror', /\bthis domain's dns violates rfc 1035\b/, "This domain's DNS violates RFC 1035."),

  // IMail.
  sure('userunknown', /^unknown user: \S+@|\binvalid final delivery userid\b/, 'Unknown user: a@example.org'),

  // IBM Domino / Lotus Notes.
  sure(
    'userunknown',
    /\bnot listed in (?:the )?(?:domino |public )?(?:name and address book|directory)\b/,
    'User some.name (a@example.org) not listed in Domino Directory',
  ),

  // Yahoo's "This user doesn't have a ... account" lives in public-patterns.ts (Sisimai's wording,
  // decisive only after a 554 as in ZoneMTA's rule).
];

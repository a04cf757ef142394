// Rows taken as facts from public, documented catalogues of real MTA replies, so they hold on mail
// we have never seen (issue 22 item 4). Each row names its source and carries an example the unit
// tests classify; the k-fold measurement keeps them in every fold (corpus-folds.ts).
//   sisimai: the phrase lists of lib/Sisimai/Reason/{UserUnknown,HostUnknown,NotAccept,Suspend,
//            HasMoved,TooManyConn}.pm in the Sisimai project (BSD-2-Clause), written here as our
//            own patterns over lower-cased text.
//            The MTA-specific message tables of its Lhost modules (Domino.pm, Exim.pm) give the
//            decisive rows: a reporter's own words about its directory or routing.
//   zonemta: the bounce rules of ZoneMTA's config/bounces.txt (rows marked reject/recipient are
//            read as a bad address; defer/blacklist and slowdown/rate rows as our host refused).
import type { StatusPattern } from './pattern-row';
import { row, sure } from './pattern-row';

export const PUBLIC_PATTERNS: readonly StatusPattern[] = [
  // Sisimai UserUnknown: the local part does not exist.
  row(
    'userunknown',
    /\b(?:user|recipient|address|mailbox) unknown\b|\bunknown (?:user|recipient|mailbox|e-?mail address|local-?part)\b/,
    '550 5.1.1 <kijitora@example.jp>... User Unknown',
    'sisimai',
  ),
  row(
    'userunknown',
    /\bno such (?:user|mailbox|recipient|address here|person at this address)\b/,
    '550 5.1.1 No such user here',
    'sisimai',
  ),
  row(
    'userunknown',
    /\b(?:user|recipient|mailbox|e-?mail address|address)(?: \S+)? does not exist\b/,
    '550 User kijitora does not exist',
    'sisimai',
  ),
  row(
    'userunknown',
    /\b(?:user|recipient|mailbox) not (?:found|known|exist|active)\b|\buser \S+ was not found\b|\brecipient \S+ was not found in\b/,
    '550 User not found',
    'sisimai',
  ),
  row(
    'userunknown',
    /\binvalid (?:address|mailbox|recipient)\b|\bmailbox (?:invalid|not present|not found|unavaiable|is unavailable|is inactive)\b/,
    '553 Invalid recipient kijitora@example.org (Mode: normal)',
    'sisimai',
  ),
  row(
    'userunknown',
    /\bthis user doesn't have an? \S+ account\b/,
    "554 delivery error: dd This user doesn't have a yahoo.com account (kijitora@yahoo.com) [0]",
    'sisimai',
  ),
  row(
    'userunknown',
    // Sisimai's "recipient address rejected. (in reply to rcpt to command)": the command part is
    // read into the record's command, so the sentence may end the text.
    /\brecipient address rejected(?:\.(?:$| \(in reply to rcpt to command\))|: (?:access denied|invalid user|invalid-recipient|unknown user|userunknown)\b)/,
    '550 <kijitora@example.jp>: Recipient address rejected: Unknown user',
    'sisimai',
  ),
  row(
    'userunknown',
    /\brequested action not taken: mailbox unavailable\b|\bno (?:account|mailbox) by that name\b|\bno mail ?box (?:found|available for this user)\b/,
    '550 Requested action not taken: mailbox unavailable',
    'sisimai',
  ),
  row(
    'userunknown',
    /\bis not (?:a known user|a valid mailbox|an active address at this host)\b|\bnot a (?:valid recipient|valid user here|local address)\b/,
    '550 kijitora@example.jp is not a valid mailbox',
    'sisimai',
  ),
  row(
    'userunknown',
    /\bsorry, (?:user unknown|badrcptto|no mailbox here by that name|your envelope recipient has been denied)\b|\b(?:badrcptto|validrcptto|badrecipientto) list\b/,
    '553 sorry, your envelope recipient is in my badrcptto list (#5.7.1)',
    'sisimai',
  ),
  row(
    'userunknown',
    /\bthere is no one at this address\b|\bthis email address is wrong or no longer valid\b|\bthe email account that you tried to reach does not exist\b|\bthe user's email name is not found\b/,
    '550 5.1.1 The email account that you tried to reach does not exist.',
    'sisimai',
  ),
  row(
    'userunknown',
    /\bdestination (?:addresses were unknown|server rejected recipients)\b|\bcan't accept user\b|\bno valid recipients, bye\b|\brecipient (?:is not accepted|is not local|not ok|refuses to accept your mail)\b/,
    '550 Recipient is not local',
    'sisimai',
  ),
  row(
    'userunknown',
    /\bnon-?existent user\b|\binvalid or unknown virtual user\b|\buser missing home directory\b|\baddress not present in directory\b|\bemail address could not be found\b/,
    '550 vdeliver: invalid or unknown virtual user',
    'sisimai',
  ),
  row(
    'userunknown',
    /\bno existe (?:dicha persona|ese usuario)\b|\bnessun utente simile in questo indirizzo\b|\butilisateur inconnu\b/,
    '550 5.1.1 Nessun utente simile in questo indirizzo',
    'sisimai',
  ),

  // Sisimai Filtered: the recipient (or its filter) refuses this sender; soft.
  row(
    'filtered',
    /\baccount is protected by\b|\bhas restricted sms e-mail\b|\bis not accepting any mail\b|\bmessage rejected due to user rules\b|\bnot found recipient account\b/,
    '550 5.2.1 Message rejected due to user rules',
    'sisimai',
  ),
  row(
    'filtered',
    /\brecipient id refuse to receive mail\b|\bis only accepting mail from specific email addresses\b|\brefused due to recipient preferences\b|\buser refuses to receive this mail\b|\byou have been blocked by the recipient\b/,
    '550 5.1.1 RCP-P2 Refused due to recipient preferences',
    'sisimai',
  ),
  // Sisimai Lhost/Domino.pm and Lhost/Exim.pm: the reporter's own directory and routing words.
  sure(
    'userunknown',
    /\bnot listed in (?:domino directory|public name & address book)\b|\bnon répertorié dans l'annuaire domino\b/,
    'User some.name (kijitora@example.jp) not listed in Domino Directory',
    'sisimai',
  ),
  sure(
    'userunknown',
    /\bthe recipient name is not recognized\b/, // Lhost/Exchange2003.pm (MSEXCH 000C05A6)
    'kijitora@example.co.jp on Thu, 29 Apr 2007 16:51:51 -0500 The recipient name is not recognized',
    'sisimai',
  ),
  sure(
    'userunknown',
    /\bresolver\.adr\.recip(?:ient)? ?notfound\b|\bbecause the address couldn't be found\. check for typos\b/,
    "Your message wasn't delivered to kijitora@example.it because the address couldn't be found. Check for typos or unnecessary spaces and try again.",
    'sisimai',
  ),
  sure(
    'hostunknown',
    /\ball relevant mx records point to non-existent hosts\b/,
    'all relevant MX records point to non-existent hosts',
    'sisimai',
  ),
  sure(
    'notaccept',
    /\ban mx or srv record indicated no smtp service\b/,
    'neko@example.org an MX or SRV record indicated no SMTP service',
    'sisimai',
  ),

  // Sisimai HostUnknown: the domain does not exist.
  row(
    'hostunknown',
    /\bdns lookup failure: host \S+ not found\b/, // Sisimai Lhost/DragonFly.pm (dma net.c)
    'DNS lookup failure: host cx.example.org not found',
    'sisimai',
  ),
  row(
    'hostunknown',
    /\bdomain (?:does not exist|is not reachable|must exist)\b|\bhost (?:or domain name not found|unknown)\b|\bunknown host\b/,
    '554 The mail could not be delivered to the recipient because the domain is not reachable.',
    'sisimai',
  ),
  row(
    'hostunknown',
    /\bno such domain\b|\bname or service not known\b|\bunrout(?:e)?able address\b|\bunknown domain name\b/,
    'Unrouteable address',
    'sisimai',
  ),
  row(
    'hostunknown',
    /\bmail domain mentioned in email address is unknown\b|\bthe account or domain may not exist\b|\b553 \S+ does not exist\b/,
    'SMTP error from remote mail server after end of data: 553 neko.example.com does not exist',
    'sisimai',
  ),

  // Sisimai NotAccept: the destination takes no mail at all.
  row(
    'notaccept',
    /\bhost(?:\/domain)? does not accept mail\b|\bname server: \.: host not found\b|\bno route for current request\b|\bsmtp protocol returned a permanent error\b/,
    '554 5.3.2 host/domain does not accept mail',
    'sisimai',
  ),

  // Sisimai HasMoved: the mailbox moved and mail is not forwarded.
  row(
    'hasmoved',
    / has been replaced by /,
    '550 5.1.6 address neko@example.jp has been replaced by neko@example.org',
    'sisimai',
  ),

  // Sisimai Suspend: the mailbox exists but is disabled (soft: accounts come back).
  row(
    'suspend',
    /\bis currently suspended\b|\bhas been (?:temporarily )?suspended\b|\bmailbox (?:currently suspended|disabled|is frozen)\b|\bthis mailbox is disabled\b|\buser suspended\b/,
    '550 5.2.1 Mailbox currently suspended',
    'sisimai',
  ),
  row(
    'suspend',
    /\bis a deactivated mailbox\b|\buser is terminated\b|\binactive account\b|\baccount is locked email bounced\b|\brecipient rejected: temporarily inactive\b/,
    '550 kijitora@example.com is a deactivated mailbox',
    'sisimai',
  ),

  // Sisimai TooManyConn and ZoneMTA slowdown/rate rows: throttling, never a bad address.
  row(
    'toomanyconn',
    /\btoo many (?:connections|concurrent smtp connections|smtp sessions for this host|errors from your ip)\b|\bconnection rate limit exceeded\b|\bexceeds per-domain connection limit\b|\btrop de connexions\b/,
    '452 4.3.2 Connection rate limit exceeded.',
    'sisimai',
  ),
  row(
    'toomanyconn',
    /\ball available ips are at maximum connection limit\b|\bhas exceeded the max emails per hour\b|\bthrottling failure: (?:daily message quota|maximum sending rate) exceeded\b/,
    '421 4.7.0 All available IPs are at maximum connection limit',
    'sisimai',
  ),

  // ZoneMTA reject/recipient rows: the address is bad.
  row(
    'userunknown',
    /^554 invalid mailbox\b|^554[ -]5\.7\.1 .*\bunknown recipient\b|^554 .*#5\.1\.1\b/,
    '554 5.7.1 <kijitora@example.org>: Unknown recipient',
    'zonemta',
  ),
  // ZoneMTA's Yahoo rule: a 554 "This user doesn't have a ... account" is an unknown user at any
  // stage of the dialogue (Yahoo answers it after DATA too).
  sure(
    'userunknown',
    /^554 .*\bthis user doesn't have an? \S+ account\b/,
    "554 delivery error: dd This user doesn't have a yahoo.com account (kijitora@yahoo.com) [0] - mta1061.mail.ne1.yahoo.com",
    'zonemta',
  ),
  // ZoneMTA defer/blacklist rows: our sending IP is listed, whatever code the reply carries (a
  // 5.2.1 "mailbox unavailable" included); the address may be fine.
  sure(
    'blocked',
    /\bclient host \[?[\d.]+\]? blocked using\b|\bspamhaus\.org\/query\b|\b(?:ip|is) blacklisted by\b|\bfound on one or more dnsbls\b|\bfound in dns blacklist\b|\bpoor reputation sender\b/,
    '554 5.7.1 Service unavailable; Client host [192.0.2.1] blocked using zen.spamhaus.org',
    'zonemta',
  ),
  sure(
    'blocked',
    /\byour ip address \S+ is blacklisted\b|\byour server ip address is in\b|\bblacklisted see\b|\brejected due to listing in\b|\bsorbs dnsbl\b/,
    '550 5.2.1 Mailbox unavailable. Your IP address 192.0.2.1 is blacklisted using SPAMHAUS-XBL.',
    'zonemta',
  ),
];

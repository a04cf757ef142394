// How receiving MTAs word a failure about the recipient address and its mailbox, as table rows
// (pattern → reason, on lower-cased text). Part of the table assembled in status-patterns.ts.
import type { StatusPattern } from './pattern-row';
import { row } from './pattern-row';

export const ADDRESS_PATTERNS: readonly StatusPattern[] = [
  // The local part does not exist (RFC 3463 X.1.1).
  row(
    'userunknown',
    /\b(?:user|recipient|mailbox|address|addressee)(?: name)? (?:is )?unknown\b/,
    '550 5.1.1 <a@example.org>... User unknown',
  ),
  row(
    'userunknown',
    /\bunknown (?:user|recipient|mailbox|e-?mail address|local[- ]?part)\b/,
    'unknown user: "neko"',
  ),
  row(
    'userunknown',
    /\bno such (?:user|mailbox|recipient|person|address|account)\b/,
    '550 No such user here',
  ),
  row(
    'userunknown',
    /\b(?:user|recipient|mailbox|address|account)(?: \S+)? (?:does not|doesn't|did not|doesnt) exist/,
    'Recipient does not exist',
  ),
  row(
    'userunknown',
    /\b(?:user|recipient|mailbox|account)(?: \S+)? (?:was )?not (?:found|known|exist|listed)\b/,
    '550 Mailbox not found',
  ),
  row(
    'userunknown',
    /\binvalid (?:recipient|mailbox|user|address|e-?mail address)\b/,
    '550 Invalid recipient <a@example.org>',
  ),
  row(
    'userunknown',
    /\bnot a valid (?:mailbox|recipient|user|address)\b/,
    'a@example.org is not a valid mailbox',
  ),
  row(
    'userunknown',
    /\bmailbox (?:is )?(?:unavailable|unavaiable|invalid|not present)\b/,
    '550 Requested action not taken: mailbox unavailable',
  ),
  row(
    'userunknown',
    /\bno (?:mailbox|account) (?:here )?(?:by|with) that name\b/,
    'No account by that name here',
  ),
  row(
    'userunknown',
    /\brecipient address rejected(?:\.|$| \(in reply)/,
    '550 <a@example.org>: Recipient address rejected. (in reply to RCPT TO command)',
  ),
  row(
    'userunknown',
    /\baddress (?:does not exist|not present in directory|couldn't be found|could not be found|is not valid)\b/,
    "the address couldn't be found",
  ),
  row(
    'userunknown',
    /\brecipient address rejected: (?:user unknown|unknown user|invalid user|userunknown|invalid-recipient|access denied|user \S+ does not exist)/,
    'Recipient address rejected: User unknown in local recipient table',
  ),
  row(
    'userunknown',
    /\b(?:there is )?no one at this address\b|\bno such person at this address\b/,
    '550 there is no one at this address',
  ),
  row('userunknown', /\bbadrcptto\b|\bvalidrcptto\b|\binvalid or unknown virtual user\b/, 'sorry, badrcptto'),
  row(
    'userunknown',
    /\bunknown or illegal alias\b|\bnot a known user\b|\bnot a local address\b/,
    'Unknown or illegal alias',
  ),
  row('userunknown', /\bbad destination mailbox address\b/, '550 5.1.1 Bad destination mailbox address'),
  row(
    'userunknown',
    /\brecipient (?:unknown|not exist|not ok)\b|\brecipient is not accepted\b/,
    '550 Recipient not exist',
  ),
  row(
    'userunknown',
    /\bmailbox \S+ (?:does not exist|unavailable)\b/,
    'mailbox a@example.org does not exist',
  ),
  row('userunknown', /\buser (?:\S+ )?(?:not active|missing home directory)\b/, 'user not active'),
  row(
    'userunknown',
    /\b(?:utilisateur|destinataire|adresse) (?:inconnu|inexistante?|invalide)\b/,
    'Utilisateur inconnu !',
  ),
  row(
    'userunknown',
    /\b(?:unbekannte[rn]? (?:empfänger|benutzer|adresse)|(?:empfänger|benutzer|adresse) (?:ist )?unbekannt)\b/,
    'Empfänger unbekannt',
  ),
  row(
    'userunknown',
    /\bnicht gefunden wurde oder keine e-mails empfangen kann\b/,
    'weil die Adresse nicht gefunden wurde oder keine E-Mails empfangen kann',
  ),
  row(
    'userunknown',
    /\b(?:usuario|destinatario) (?:desconocido|inexistente|no existe)\b|\bno existe (?:dicha persona|ese usuario)\b/,
    'Usuario desconocido',
  ),
  row(
    'userunknown',
    /\b(?:utente|destinatario) (?:sconosciuto|inesistente)\b|\bnessun utente simile\b/,
    'Utente sconosciuto',
  ),
  row('userunknown', /\b(?:usuário|destinatário) (?:desconhecido|inexistente)\b/, 'Usuário desconhecido'),
  row(
    'userunknown',
    /\bthis email address is wrong or no longer valid\b/,
    'This email address is wrong or no longer valid',
  ),

  // The domain does not exist (RFC 3463 X.1.2, X.4.4).
  row(
    'hostunknown',
    /\bhost (?:or domain name )?(?:unknown|not found(?!, try again))\b|\bunknown host\b/,
    'Host or domain name not found. Name service error',
  ),
  row(
    'hostunknown',
    /\b(?:no such|unknown) domain\b|\bdomain (?:does not|doesn't) exist\b|\bdomain (?:name )?not found\b/,
    'DNS Error: Domain name not found',
  ),
  row('hostunknown', /\bname or service not known\b|\bunrout(?:e)?able address\b/, 'Unrouteable address'),
  row(
    'hostunknown',
    /\b(?:recipient )?domain must exist\b|\bdomain is not reachable\b|\bunknown domain name\b/,
    'Recipient address rejected: unknown domain name',
  ),
  row(
    'hostunknown',
    /\bmail domain mentioned in email address is unknown\b|\bthe account or domain may not exist\b/,
    'The account or domain may not exist',
  ),
  row('hostunknown', /\b553 \S+ does not exist\b/, '553 example.org does not exist'),
  row(
    'hostunknown',
    /\bhost \S+ not found(?!, try again)\b/,
    'DNS lookup failure: host mx.example.org not found',
  ),

  // The mailbox moved with no forwarding address (RFC 3463 X.1.6).
  row(
    'hasmoved',
    /\bhas been replaced by\b|\b(?:mailbox|user|address) has (?:moved|changed)\b/,
    'a@example.org has been replaced by b@example.org',
  ),

  // The domain accepts no mail at all (RFC 7505 null MX).
  row(
    'notaccept',
    /\bdoes not accept mail\b|\bnull ?mx\b|\bdoesn't receive email\b/,
    '556 5.1.10 Recipient address has null MX; domain does not accept mail',
  ),
  row('notaccept', /\bno mx record found for domain=/, '554 No MX record found for domain=example.org'),
  row(
    'notaccept',
    /\ban mx or srv record indicated no smtp service\b/,
    'an MX or SRV record indicated no SMTP service',
  ),
  row(
    'notaccept',
    /\bmail receiving disabled\b|\bno route for current request\b|\bsmtp protocol returned a permanent error\b/,
    'SMTP protocol returned a permanent error',
  ),

  // The mailbox exists but is suspended or disabled (RFC 3463 X.2.1, X.7.13).
  row(
    'suspend',
    /\b(?:account|mailbox|user|recipient|address)(?: \S+)? (?:is |has been )?(?:currently |temporarily )?(?:suspended|disabled|deactivated|frozen|locked|terminated)\b/,
    'Mailbox currently suspended',
  ),
  row(
    'suspend',
    /\b(?:inactive|disabled|suspended|deactivated) (?:account|mailbox|recipient|user)\b/,
    'Recipient address rejected: Disabled recipient address',
  ),
  row(
    'suspend',
    /\binvalid\/inactive user\b|\barchived recipient\b|\bboite du destinataire archivee\b|\btemporar(?:y|ily) locked\b|\b(?:is currently|has been) suspended\b|\buser or domain is disabled\b|\bthis address no longer accepts mail\b|\bmailbox unavailable or access denied\b|\btemporarily inactive\b/,
    'invalid/inactive user',
  ),
  row(
    'suspend',
    /\bemail account that you tried to reach is (?:disabled|inactive)\b/,
    'The email account that you tried to reach is disabled.',
  ),
  row(
    'suspend',
    /\b(?:account|user) (?:has been )?(?:disabled or discontinued|suspend(?:ed)? the service)\b|\brecipient suspend the service\b/,
    'This account has been disabled or discontinued',
  ),

  // The mailbox is over its quota (RFC 3463 X.2.2).
  row(
    'mailboxfull',
    /\bmailbox (?:is |was )?(?:currently )?full\b|\bfull mailbox\b|\bmailbox (?:is )?(?:full|over(?:flowing)?)\b/,
    '552 5.2.2 Mailbox full',
  ),
  row(
    'mailboxfull',
    /\bover ?quota\b|(?<!sending |message |submission |daily )\bquota (?:exceeded|violation|full)\b|\bexceeded (?:the |their |his |her )?(?:disk |storage |mailbox )?quota\b/,
    'mailbox is over quota',
  ),
  row(
    'mailboxfull',
    /\b(?:disk|mailbox|maildir|account is \S+) quota\b|\bmailbox size limit exceeded\b|\bmailbox exceeds allowed size\b/,
    'Maildir quota exceeded',
  ),
  row(
    'mailboxfull',
    /\b(?:not enough|insufficient|not sufficient) (?:\S+ )?space\b|\bmailbox\b.{0,30}\bexceeded\b.{0,30}\blimit\b|\bno space left on device\b|\bexceeded storage allocation\b/,
    'Not enough disk space',
  ),
  row(
    'mailboxfull',
    /\bmailbox (?:has )?exceeded (?:the )?(?:size |storage |maximum )?limit\b|\bmailbox would exceed maximum allowed storage\b/,
    'The mailbox has exceeded the size limit',
  ),
  row(
    'mailboxfull',
    /\bmailfolder is full\b|\btoo many messages (?:on the server|in (?:this|the) mailbox)\b|\buser's space has been used up\b/,
    'user has too many messages on the server',
  ),
  row(
    'mailboxfull',
    /\bboite (?:du destinataire )?pleine\b|\bpostfach (?:ist )?voll\b|\bcasella (?:di posta )?piena\b|\bbuz[oó]n (?:est[aá] )?lleno\b/,
    'Boite du destinataire pleine',
  ),
  row(
    'mailboxfull',
    /\btoo much mail data\b|\bexceeding receiving limits\b/,
    'Account disabled temporarly for exceeding receiving limits',
  ),

  // The recipient (or its filter) refused this sender or this message.
  row(
    'filtered',
    /\bmessage filtered\b(?!\. (?:please see|refer to))|\bmessage rejected due to user rules\b|\buser reject/,
    '550 Message filtered',
  ),
  row(
    'filtered',
    /\brefuses? to (?:receive|accept) (?:this |your )?mail\b|\brecipient id refuse to receive mail\b/,
    'Recipient refuses to accept your mail',
  ),
  row(
    'filtered',
    /\byou have been blocked by the recipient\b|\brefused due to recipient preferences\b/,
    'Refused due to recipient preferences',
  ),
  row(
    'filtered',
    /\bis only accepting mail from specific email addresses\b|\bis not accepting any mail\b|\baccount is protected by\b/,
    'The recipient is only accepting mail from specific email addresses',
  ),
  row(
    'filtered',
    /\bhas restricted sms e-mail\b|\bbounced address\b|\bnot found recipient account\b/,
    'Bounced Address',
  ),

  // Further unknown-recipient wordings (qmail badrcptto/validrcptto, vpopmail, Courier, Kerio ...).
  row(
    'userunknown',
    /\bbad (?:\S+ )?recipient\b|#5\.1\.1 bad address\b|\baddress invalid\b|\b5\.1\.0 address rejected\b/,
    '550 Bad recipient address',
  ),
  row(
    'userunknown',
    /\bcan't accept user\b|\bdestination addresses were unknown\b|\bdestination server rejected recipients\b/,
    "550 Can't accept user",
  ),
  row(
    'userunknown',
    /\bis not an active address at this host\b|\bmailbox is inactive\b|\bno mail ?box (?:found|available for this user)\b/,
    'a@example.org is not an active address at this host',
  ),
  row(
    'userunknown',
    /\baccount unavailable\b|\bno valid recipients, bye\b|\brecipient is not local\b|\brecipient refuses to accept your mail\b/,
    '550 No thank you rejected: Account Unavailable',
  ),
  row(
    'userunknown',
    /\byour envelope recipient has been denied\b|\bthat domain or user isn't in my list of allowed rcpthosts\b|\bbadrecipientto\b/,
    '553 sorry, your envelope recipient has been denied',
  ),
  row(
    'userunknown',
    /\bfollowing recipients was undeliverable\b|\bthe user's email name is not found\b|\bno \S+ in name directory\b/,
    "550 The user's email name is not found",
  ),
  row(
    'userunknown',
    /<[^<>\s@]+@[^<>\s]+>\.{0,3}:? not found\b|\bnon-?existent (?:user|recipient|mailbox|address)\b|\brcpt <\S*> does not exist\b|\buser \(\S+\) unknown\b/,
    '550 Nonexistent user',
  ),
];

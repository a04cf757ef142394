// Table rows for refusals of the message itself (part of the table in status-patterns.ts): size,
// spam, viruses, local policy and malformed content.
import type { StatusPattern } from './pattern-row';
import { row } from './pattern-row';

export const CONTENT_PATTERNS: readonly StatusPattern[] = [
  // Size (RFC 3463 X.3.4, X.2.3).
  row(
    'mesgtoobig',
    /\bmessage (?:file )?too big\b|\bmessage (?:size|length) exceeds\b|\bsize limit\b|\bline limit exceeded\b/,
    '552 5.3.4 Error: message file too big',
  ),
  row(
    'mesgtoobig',
    /\bmax(?:imum)? message size exceeded\b|\bexceeded (?:the )?maximum (?:inbound|incoming) message size\b|\bmessage too large for this\b/,
    'Max message size exceeded',
  ),
  row('mesgtoobig', /\btaille limite du message atteinte\b/, 'Taille limite du message atteinte'),
  row(
    'exceedlimit',
    /\bmessage too large\b|\bmessage header size exceeds limit\b/,
    '552 5.2.3 Message too large',
  ),

  // Content: spam, viruses, policy (RFC 3463 X.6.x, X.7.x).
  row(
    'spamdetected',
    /\b(?:detected|identified|classified|considered|scored|rejected|flagged|marked) (?:as |by (?:our |the )?)?(?:spam|unsolicited|bulk)/,
    'Message rejected as spam by Content Filtering',
  ),
  row(
    'spamdetected',
    /\bspam (?:detected|rejected|blocked|refused|not accepted|message rejected|score|check|content|email|rejection|filter)|\bspam[- ]?like\b|(?:^|\s)- spam\b|\b5\.7\.0 reject, id=/,
    '550 5.7.1 Spam detected',
  ),
  row(
    'spamdetected',
    /\b(?:appears|looks|seems|looked) (?:to be |like )?(?:spam|unsolicited)|\b(?:probable|likely|suspected|possible) spam\b|\bprobability of (?:being )?spam\b/,
    '554 5.7.1 Message looks like spam',
  ),
  row(
    'spamdetected',
    /\bblacklisted url\b|\buribl\b|\bsurbl\b|\bspamassassin\b|\bspam ?bouncer\b|\bspamprofiler\b|\bbulk (?:e-?mail|mail|advertising)\b/,
    '550 Blacklisted URL in message',
  ),
  row(
    'spamdetected',
    /\bcontent filter rejection\b|\bmessage content rejected\b|\brejecting (?:banned|mail) content\b|\bmail content denied\b|\bunacceptable content\b/,
    '554 5.7.1 Message content rejected',
  ),
  row(
    'spamdetected',
    /\bmessage filtered\. (?:please see|refer to)\b|\bmail rejete\. mail rejected\. ofr_506\b|\bgreylisted.* please try again in\b/,
    '554 Message filtered. Please see the FAQs section on spam',
  ),
  row(
    'spamdetected',
    /\bmessage (?:was )?rejected (?:for|due to) (?:policy reasons|suspected spam)\b|\bmail score \(|\bspam points\b|\btoo many spam complaints\b/,
    '554 Message rejected for policy reasons',
  ),
  row(
    'virusdetected',
    /\bvirus(?:es)? (?:detected|found)\b|\binfected with (?:a )?virus\b|\b(?:contains?|containing) (?:a )?virus\b|\bmalware\b|\bmalicious\b/,
    '550 Virus detected',
  ),
  row(
    'virusdetected',
    /\bpotentially executable attachment\b|\bused by recent viruses\b|\bprohibited virus\b/,
    'This form of attachment has been used by recent viruses or other malware',
  ),
  row(
    'policyviolation',
    /\b(?:local |organization(?:al)? )?policy (?:violation|rejection)\b|\bdenied by policy\b|\b(?:not accepted|rejected) for policy reasons\b|\brejected by organization policy\b/,
    '554 5.7.9 Message not accepted for policy reasons',
  ),
  row(
    'policyviolation',
    /\bmessage rejected due to local policy\b|\bdue to security policies\b|\borganizational settings\b|\bprotocol violation\b/,
    '550 Message rejected due to local policy',
  ),
  row(
    'policyviolation',
    /\bclosed mailing list\b|\bmembers-only list\b|\bnot subscribed to this group\b|\billegal attachment\b|\bmass mailer\b/,
    'Posting by non-member to a members-only list',
  ),
  row(
    'policyviolation',
    /\bnot accepting mail with (?:attachments|embedded images)\b|\bmessages containing images or other attachments\b|\bheader (?:error|are not accepted)\b/,
    'Header error',
  ),
  row(
    'policyviolation',
    /\bmessage given low priority\b|\bmessages with multiple addresses\b|\bcontent presents a potential\b/,
    'Message given low priority',
  ),
  row(
    'notcompliantrfc',
    /\bnot rfc ?5322 compliant\b|\brfcmessagenoncompliant\b|\bnot (?:rfc )?compliant with rfc\b|\bduplicate header\b|\bmultiple\b.{0,60}\bheaders?\b/,
    'This message is not RFC 5322 compliant',
  ),
  row(
    'contenterror',
    /\bheader size exceeds\b|\bimproper use of 8-bit data\b|\bmime complexity\b|\binvalid mime headers\b|\bimproperly-formatted binary\b|\bunnecessary base64\b/,
    'Improper use of 8-bit data in message header',
  ),
  row(
    'contenterror',
    /\btoo many received: headers\b/,
    'Routing loop detected -- too many Received: headers',
  ),

  // Further spam-filter wordings.
  row(
    'spamdetected',
    /\bblock(?:ed)? for (?:spam|abuse)\b|\bno spam please\b|\bdenied due to spam list\b|\bdrbl\b|\bmay consider spam\b|\bcontains spam or virus\b/,
    '554 Message contains spam or virus',
  ),
  row(
    'spamdetected',
    /\bseems to be a spam\b|\bthinks this email is spam\b|\bdetected that this message is\b|\breject bulk\.advertising\b|\bsender domain listed at\b|\bspamming not allowed\b/,
    '550 Our email server thinks this email is spam',
  ),
  row(
    'spamdetected',
    /\bdetected your message as spam\b|\brecurrent pattern detection\b|\btoo much spam\b|\bspam message not queued\b|\bdont accept spam\b|\bsimilar to spam\b/,
    '554 This message was rejected by Recurrent Pattern Detection System',
  ),
  row(
    'spamdetected',
    /\bemail is probably spam\b|\bas spam and has prevented delivery\b|\bfailed several antispam checks\b|\btemporarily blocked by our filter\b|\btriggered a spam block\b/,
    '550 Your message has triggered a SPAM block',
  ),
  row('virusdetected', /\bvirus phishing\b|\bmalicious_url\b/, '550 Virus Phishing/Malicious_URL detected'),
  row(
    'policyviolation',
    /\bthe recipient is not accepting mail with\b/,
    '554 Rejected because the recipient is not accepting mail with attachments',
  ),
];

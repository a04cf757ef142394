// RFC 3834 automatic responses (vacation notices, out-of-office replies) and the vendor headers
// that predate it. An auto-reply is not a failure: the recipient's mailbox works.
import type { HeaderField } from './header-fields';
import { decodeHeaderValue, firstField } from './header-fields';

/** Subjects of out-of-office replies, as the common clients and servers write them. */
const AUTO_REPLY_SUBJECT =
  /^(?:auto(?:matic)?[ -]?(?:reply|response|antwort|respuesta|risposta|réponse)|out of (?:the )?office|away from (?:the )?office|on vacation|vacation(?: reply)?|abwesenheit(?:snotiz)?|absence|r[ée]ponse automatique|respuesta autom[aá]tica|risposta automatica|fuera de la oficina|autosvar|automaattinen vastaus|自動応答|away until)\b|^(?:auto|autoreply|ooo|out of office)\s*:|\b(?:is )?(?:out of (?:the )?office|on vacation|away until)\b/i;

const MAILER_DAEMON = /\b(?:mailer-daemon|mail-daemon|postmaster|mail delivery (?:subsystem|system))\b/i;

/**
 * True when the headers mark the message as an automatic reply from a person's mailbox:
 * RFC 3834 §5.1 Auto-Submitted: auto-replied, or X-Autoreply / X-Autorespond / X-Apple-Action:
 * VACATION / Precedence: auto_reply, or an out-of-office subject. Delivery reports are excluded:
 * Exim marks its bounces auto-replied too, and those come from the mailer daemon.
 */
export function isAutoReply(headers: readonly HeaderField[]): boolean {
  const from = firstField(headers, 'from') ?? '';
  const subject = decodeHeaderValue(firstField(headers, 'subject') ?? '');
  if (MAILER_DAEMON.test(from)) return false;
  if (
    /\b(?:undeliver|delivery (?:status|failure|notification)|returned mail|failure notice|mail delivery failed)/i.test(
      subject,
    )
  )
    return false;
  const autoSubmitted = (firstField(headers, 'auto-submitted') ?? '').toLowerCase();
  if (autoSubmitted.startsWith('auto-replied')) return true;
  if (firstField(headers, 'x-autoreply') !== null || firstField(headers, 'x-autorespond') !== null)
    return true;
  if (/vacation/i.test(firstField(headers, 'x-apple-action') ?? '')) return true;
  if (/^auto[_-]?reply$/i.test((firstField(headers, 'precedence') ?? '').trim())) return true;
  return AUTO_REPLY_SUBJECT.test(subject.trim());
}

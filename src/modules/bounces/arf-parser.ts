// RFC 5965 Abuse Reporting Format: a multipart/report (report-type=feedback-report) whose second
// part, message/feedback-report, describes a complaint about the message in the third part.
import type { DeliveryRecord } from '../../mail/reply-classifier/bounce-result';
import { emptyRecord } from '../../mail/reply-classifier/bounce-result';
import { firstField, parseHeaderBlock } from './header-fields';
import { extractAddress } from './email-address';
import type { MimePart } from './mime-message';
import { leafParts } from './mime-message';

/** The message/feedback-report part of a report, or null when it is not an ARF report. */
export function findFeedbackReport(root: MimePart): MimePart | null {
  const parts = leafParts(root);
  return (
    parts.find((p) => p.type === 'message/feedback-report') ??
    // Some feedback loops send the RFC 5965 §3.1 fields as a text part.
    parts.find(
      (p) =>
        p.type === 'text/plain' &&
        /^Feedback-Type:\s*\S+/im.test(p.text) &&
        /^(?:Version|User-Agent):/im.test(p.text),
    ) ??
    null
  );
}

/**
 * One complaint per complaining recipient. RFC 5965 §3.2: Original-Rcpt-To may repeat, one per
 * recipient; when it is absent (it is optional) the recipient is taken from the To: of the
 * returned message (§2 item 3), which is often all a provider leaves unredacted.
 */
export function parseFeedbackReport(
  report: MimePart,
  originalRecipients: readonly string[],
): DeliveryRecord[] {
  const fields = parseHeaderBlock(report.text.replace(/\n\s*\n/g, '\n'));
  const feedbackType = (firstField(fields, 'feedback-type') ?? 'abuse').toLowerCase();
  const rcpts = fields
    .filter((f) => f.name === 'original-rcpt-to' || f.name === 'removal-recipient')
    .map((f) => extractAddress(f.value))
    .filter((a): a is string => a !== null);
  const recipients = rcpts.length > 0 ? rcpts : [originalRecipients[0] ?? null];
  return recipients.map((recipient) => {
    const rec = emptyRecord(recipient);
    rec.action = 'complaint';
    rec.reason = 'feedback';
    rec.diagnostic = feedbackType;
    return rec;
  });
}

import type { HeaderSection } from '../modules/inbound/header-section';
import type { LineBreakFault } from './line-breaks';
import type { SmtpVerdict } from './smtp-verdict';
import { defer, reject } from './smtp-verdict';

/**
 * RFC 5321 §4.5.3.1.8: a server MUST accept at least 100 recipients per
 * transaction; a lower cap is a protocol violation.
 */
export const MIN_RECIPIENT_CAP = 100;

/**
 * Recipient cap per transaction. `accepted` counts recipients already accepted
 * in this transaction. Over the cap the answer is 452 (RFC 5321 §4.5.3.1.10:
 * "The correct reply code for this condition is 452"), so the client sends the
 * remaining recipients in a later transaction. Undefined: no objection.
 */
export function recipientCapVerdict(accepted: number, cap: number): SmtpVerdict | undefined {
  if (accepted < cap) return undefined;
  return defer(452, '4.5.3', `Too many recipients (at most ${cap} per message)`);
}

/**
 * Message larger than the SIZE we advertise. 552 per RFC 1870, SIZE ("message size
 * exceeds fixed maximum message size") and RFC 5321 §4.5.3.1.9 ("552 Too much
 * mail data"); 5.3.4 is RFC 3463's "Message too big for system". Haraka's own
 * answer is 550, which a sender may read as "no such mailbox".
 */
export function oversizeVerdict(maxBytes: number): SmtpVerdict {
  return reject(552, '5.3.4', `Message size exceeds fixed maximum message size (${maxBytes} bytes)`);
}

/**
 * A message with a bare CR or LF is refused permanently: the sender violates a
 * MUST of RFC 5321 §2.3.8 and will send the same bytes again. An end-of-data
 * look-alike is a smuggling attempt: refuse and hang up, since what follows on
 * this connection is the attacker's, not the client's, idea of a command.
 */
export function lineBreakVerdict(fault: LineBreakFault | undefined): SmtpVerdict | undefined {
  if (fault === undefined) return undefined;
  if (fault.smuggling) {
    return reject(550, '5.6.0', 'Message refused: end-of-data sequence other than <CRLF>.<CRLF>', true);
  }
  const which = fault.kind === 'bare-cr' ? 'CR' : 'LF';
  return reject(550, '5.6.0', `Message refused: bare ${which}; lines must end with CRLF (RFC 5321 2.3.8)`);
}

/** The message could not be read back for checking: try again later rather than queue it unchecked. */
export function scanFailedVerdict(): SmtpVerdict {
  return defer(451, '4.3.0', 'Temporary failure while checking the message; try again later');
}

/**
 * A header section no sender needs (issue 28, item 4): each DKIM-Signature may cost a
 * key lookup, so thousands of them are a way to stall the worker. Refused permanently
 * (the same bytes would be refused again); 5.6.0 is RFC 3463's "Other or undefined
 * media error", as for the other refusals of the message's form.
 */
export function headerSectionVerdict(
  section: HeaderSection,
  dkimSignatures: number,
  limits: { readonly maxFields: number; readonly maxDkimSignatures: number },
): SmtpVerdict | undefined {
  if (section.exceeded) {
    return reject(554, '5.6.0', `Message refused: more than ${limits.maxFields} header fields`);
  }
  if (dkimSignatures > limits.maxDkimSignatures) {
    return reject(
      554,
      '5.6.0',
      `Message refused: ${dkimSignatures} DKIM-Signature fields (at most ${limits.maxDkimSignatures})`,
    );
  }
  return undefined;
}

import { clip } from '../shared/text';

/**
 * SMTP decisions as values. Pure functions in src/mta decide; the Haraka plugins
 * only translate a verdict into Haraka's `next(code, msg)` (plugins/smtp-reply.ts).
 *
 * `status` is the RFC 3463 enhanced status code; RFC 2034 puts it first in the
 * reply text, which is what `formatReply` renders.
 */
export type SmtpVerdict =
  | { readonly kind: 'accept'; readonly code: number; readonly status: string; readonly text: string }
  | {
      readonly kind: 'defer' | 'reject';
      readonly code: number;
      readonly status: string;
      readonly text: string;
      /** Close the connection after replying (the peer's bytes can no longer be trusted). */
      readonly disconnect: boolean;
    };

/**
 * RFC 5321 §4.5.3.1.5: a reply line is at most 512 octets with its code and CRLF.
 * Verdict texts quote what the client sent (addresses, From, API error messages):
 * bounded here, once for every verdict, and kept on one line (a CR or LF in an
 * echoed value would end the reply early and start another). Issue 17, finding 10.
 */
const MAX_REPLY_TEXT = 400;

function replyText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return clip(text.replace(/[\x00-\x1f\x7f]/g, ' '), MAX_REPLY_TEXT);
}

export function accept(code: number, status: string, text: string): SmtpVerdict {
  return { kind: 'accept', code, status, text: replyText(text) };
}

export function defer(code: number, status: string, text: string, disconnect = false): SmtpVerdict {
  return { kind: 'defer', code, status, text: replyText(text), disconnect };
}

export function reject(code: number, status: string, text: string, disconnect = false): SmtpVerdict {
  return { kind: 'reject', code, status, text: replyText(text), disconnect };
}

/** The reply line as the client sees it, e.g. `550 5.1.1 <a@b>: ...`. */
export function formatReply(verdict: SmtpVerdict): string {
  return `${verdict.code} ${verdict.status} ${verdict.text}`;
}

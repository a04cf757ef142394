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

export function accept(code: number, status: string, text: string): SmtpVerdict {
  return { kind: 'accept', code, status, text };
}

export function defer(code: number, status: string, text: string, disconnect = false): SmtpVerdict {
  return { kind: 'defer', code, status, text, disconnect };
}

export function reject(code: number, status: string, text: string, disconnect = false): SmtpVerdict {
  return { kind: 'reject', code, status, text, disconnect };
}

/** The reply line as the client sees it, e.g. `550 5.1.1 <a@b>: ...`. */
export function formatReply(verdict: SmtpVerdict): string {
  return `${verdict.code} ${verdict.status} ${verdict.text}`;
}

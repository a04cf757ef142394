import type { BounceKind } from './bounce-result';
import { emptyRecord } from './bounce-result';
import { decideReason, kindOfReason } from './classify-reason';

export interface SmtpRejection {
  readonly recipient: string;
  readonly smtpCode: number | null;
  readonly enhancedStatus: string | null;
  /** The remote's reply text. */
  readonly response: string;
}

/**
 * Reads a remote server's permanent refusal during our own delivery with the same
 * reason table as bounce reports, so "550 5.1.1 no such user" at delivery and the
 * same words in a DSN both make a hard bounce (and a suppression), while "550 5.7.1
 * blocked as spam" stays soft.
 */
export function classifySmtpRejection(r: SmtpRejection): { kind: BounceKind; reason: string } {
  const rec = {
    ...emptyRecord(r.recipient),
    status: r.enhancedStatus,
    smtpCode: r.smtpCode,
    action: 'failed',
    diagnostic: r.response,
    diagnosticType: 'SMTP',
  };
  const reason = decideReason(rec);
  return { kind: kindOfReason(reason, rec), reason };
}

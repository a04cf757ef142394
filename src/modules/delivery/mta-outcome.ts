/**
 * What the MTA's delivery hooks report for one recipient of one message: the
 * payload of an `mta-outcome` job, written by the Haraka plugin and applied by
 * the worker. Outcomes are values, not exceptions.
 */
export type MtaOutcomeKind =
  /** The recipient's server accepted it (2xx). */
  | 'delivered'
  /** A temporary failure; Haraka will retry at MTA_RETRY_INTERVALS. */
  | 'deferred'
  /** A permanent rejection (5xx) from the recipient's server. */
  | 'bounced'
  /** Could not be delivered at all: retries exhausted, or no MX / DNS failure to the end. */
  | 'failed';

export interface MtaOutcomePayload {
  readonly emailId: string;
  /** Lower-cased envelope recipient. */
  readonly recipient: string;
  readonly outcome: MtaOutcomeKind;
  /** SMTP reply code, when the remote gave one. */
  readonly smtpCode: number | null;
  /** Enhanced status code (RFC 3463), e.g. "5.1.1", when known. */
  readonly enhancedStatus: string | null;
  /** The remote's reply text, or Haraka's error text. */
  readonly response: string;
  /** Haraka's delivery attempt number for this recipient (1-based). */
  readonly attempt: number;
  /** Remote host that answered, when known. */
  readonly host: string | null;
  /** When the MTA observed it (RFC 3339). */
  readonly at: string;
  /**
   * How this attempt's SMTP session was protected: `TLSv1.3 TLS_AES_256_GCM_SHA384`
   * (version and cipher), `plaintext` (no STARTTLS), null when no session was opened
   * (DNS failure, no MX reachable) or not known (a report from before issue 22).
   */
  readonly tls?: string | null;
  /** NODE_NAME of the node whose MTA reported it (issue 23); null when not known. */
  readonly node?: string | null;
}

export const MTA_OUTCOME_QUEUE = 'mta-outcome';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

const KINDS: readonly string[] = ['delivered', 'deferred', 'bounced', 'failed'];

/** Validates a job payload read back from the database. */
export function parseMtaOutcome(v: unknown): MtaOutcomePayload | undefined {
  if (!isRecord(v)) return undefined;
  const { emailId, recipient, outcome, smtpCode, enhancedStatus, response, attempt, host, at, tls, node } = v;
  if (typeof emailId !== 'string' || typeof recipient !== 'string' || typeof outcome !== 'string')
    return undefined;
  if (!KINDS.includes(outcome) || typeof response !== 'string' || typeof at !== 'string') return undefined;
  return {
    emailId,
    recipient,
    outcome: outcome as MtaOutcomeKind,
    smtpCode: typeof smtpCode === 'number' ? smtpCode : null,
    enhancedStatus: typeof enhancedStatus === 'string' ? enhancedStatus : null,
    response,
    attempt: typeof attempt === 'number' ? attempt : 1,
    host: typeof host === 'string' ? host : null,
    at,
    tls: typeof tls === 'string' ? tls : null,
    node: typeof node === 'string' ? node : null,
  };
}

// The MTA plugins read the email id of a VERP sender from here (src/mail/verp-address.ts).
export { emailIdFromVerp } from '../../mail/verp-address';

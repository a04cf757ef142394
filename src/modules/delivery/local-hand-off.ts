import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { enqueue } from '../../jobs/enqueue';
import { isoNow } from '../../shared/clock';
import { enqueueBounceReport } from '../../mail/bounce-intake';
import type { RecipientRow } from '../emails';
import type { RawStore, StagedRaw } from '../inbound';
import { commitStagedRaws } from '../inbound';
import { insertCaptured } from '../emails';
import type { EmailForSend } from './delivery.repository';
import type { HandOffAccepted } from './inject-client';
import type { MtaOutcomeKind, MtaOutcomePayload } from './mta-outcome';
import { MTA_OUTCOME_QUEUE } from './mta-outcome';
import { applyMtaOutcomeIn } from './outcome-job';
import type { SimulatedOutcome } from '../../mail/simulator';
import { SIMULATED_DEFERRAL_MS, SIMULATOR_DOMAIN, simulatedOutcome } from '../../mail/simulator';
import { isReported, simulatedReport } from './simulator-reports';

/**
 * What the hand-off does for recipients that never reach the MTA (issue 21): test
 * mail (every recipient) ends in the built-in capture, simulator recipients
 * (live or test) get their chosen outcome. `prepareLocalHandOff` runs before the
 * MTA sees the message (signing, report files: anything that can fail, so a
 * failure retries the attempt before any real recipient got it);
 * `recordLocalHandOff` writes the outcomes in the transaction that records `sent`.
 */

/** Signs a captured message as the MTA would sign it (DKIM when the domain has a key). */
export type CaptureSigner = (email: Pick<EmailForSend, 'id' | 'domain_name'>, raw: Buffer) => Promise<Buffer>;

export interface LocalHandOffDeps {
  /** Report copies are stored where the MX stores them (inbound/raw-store.ts). */
  readonly rawStore: RawStore;
  /** Absent (unit tests): captured unsigned. */
  readonly sign?: CaptureSigner | undefined;
}

interface StoredReport {
  readonly recipient: string;
  /** On PostgreSQL a staged row, inserted by recordLocalHandOff with the report's job. */
  readonly stored: StagedRaw;
}

export interface LocalHandOff {
  /** Recipients the MTA must still get (live mail only). */
  readonly toMta: readonly string[];
  /** The signed message, for test mail. */
  readonly captured: Buffer | undefined;
  readonly outcomes: ReadonlyMap<string, SimulatedOutcome | 'captured'>;
  readonly reports: readonly StoredReport[];
  /** The envelope sender the reports are addressed to (the message's VERP address). */
  readonly verp: string;
}

/** The 250 the MTA would have answered, for a message no recipient of which goes to it. */
export function localAcceptance(h: LocalHandOff, email: Pick<EmailForSend, 'mode'>): HandOffAccepted {
  const response =
    email.mode === 'test'
      ? '250 2.0.0 Captured by Mailroom test mode; not delivered'
      : '250 2.0.0 Accepted by the Mailroom simulator';
  return { response, accepted: [...h.outcomes.keys()], rejected: [] };
}

export async function prepareLocalHandOff(
  deps: LocalHandOffDeps,
  email: EmailForSend,
  recipients: readonly RecipientRow[],
  raw: Buffer,
  verp: string,
): Promise<LocalHandOff> {
  const outcomes = new Map<string, SimulatedOutcome | 'captured'>();
  const toMta: string[] = [];
  for (const r of recipients) {
    const simulated = simulatedOutcome(r.address);
    if (simulated !== undefined) outcomes.set(r.address, simulated);
    else if (email.mode === 'test') outcomes.set(r.address, 'captured');
    else toMta.push(r.address);
  }
  const captured = email.mode === 'test' ? (deps.sign ? await deps.sign(email, raw) : raw) : undefined;
  const reports: StoredReport[] = [];
  const at = new Date();
  for (const [recipient, outcome] of outcomes) {
    if (outcome === 'captured' || !isReported(outcome)) continue;
    const bytes = simulatedReport(outcome, {
      emailId: email.id,
      verp,
      recipient,
      messageId: email.message_id,
      fromHeader: email.from_header,
      subject: email.subject,
      at,
    });
    reports.push({ recipient, stored: await deps.rawStore.put(bytes) });
  }
  return { toMta, captured, outcomes, reports, verp };
}

function outcome(
  email: EmailForSend,
  recipient: string,
  kind: MtaOutcomeKind,
  reply: { code: number; status: string; text: string },
): MtaOutcomePayload {
  return {
    emailId: email.id,
    recipient,
    outcome: kind,
    smtpCode: reply.code,
    enhancedStatus: reply.status,
    response: reply.text,
    attempt: 1,
    host: SIMULATOR_DOMAIN,
    at: isoNow(),
  };
}

const REPLIES = {
  captured: { code: 250, status: '2.0.0', text: 'Captured by Mailroom test mode; not delivered' },
  delivered: { code: 250, status: '2.0.0', text: 'Delivered by the Mailroom simulator' },
  deferred: { code: 451, status: '4.2.0', text: 'Simulated deferral: try again later' },
} as const;

/**
 * Inside the transaction that recorded `sent`: the capture, and each local recipient's
 * outcome (the MTA never saw these recipients, so none of them can have been refused).
 */
export async function recordLocalHandOff(
  trx: Kysely<Database>,
  email: EmailForSend,
  h: LocalHandOff,
): Promise<void> {
  if (h.captured !== undefined) {
    await insertCaptured(trx, {
      email_id: email.id,
      user_id: email.user_id,
      raw: h.captured,
      size_bytes: h.captured.length,
      captured_at: isoNow(),
    });
  }
  const options = { acceptBeforeSent: true };
  for (const [recipient, kind] of h.outcomes) {
    if (kind === 'captured' || kind === 'delivered' || kind === 'complained') {
      // complained@ is delivered first: a complaint is about mail that arrived.
      const reply = kind === 'captured' ? REPLIES.captured : REPLIES.delivered;
      await applyMtaOutcomeIn(trx, outcome(email, recipient, 'delivered', reply), options);
    } else if (kind === 'deferred') {
      await applyMtaOutcomeIn(trx, outcome(email, recipient, 'deferred', REPLIES.deferred), options);
      await enqueue(trx, {
        queue: MTA_OUTCOME_QUEUE,
        payload: outcome(email, recipient, 'delivered', REPLIES.delivered),
        runAt: new Date(Date.now() + SIMULATED_DEFERRAL_MS),
        dedupeKey: `simulator:${email.id}:${recipient}`,
      });
    }
  }
  for (const { stored } of h.reports) {
    await commitStagedRaws(trx, [stored]);
    await enqueueBounceReport(trx, {
      rawPath: stored.ref,
      sha256: stored.sha256,
      size: stored.size,
      mailFrom: '',
      rcptTo: [h.verp],
      remoteIp: null,
      helo: `mx.${SIMULATOR_DOMAIN}`,
      receivedAt: isoNow(),
    });
  }
}

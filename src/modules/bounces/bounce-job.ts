import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config';
import type { Database } from '../../db/schema';
import { isoNow } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import type { JobHandler } from '../../jobs/job-handler';
import { cpuWork, PermanentJobError } from '../../jobs/job-handler';
import * as delivery from '../delivery';
import type { EmailRow } from '../emails';
import { verpKey } from '../../mail/verp-address';
import type { RawStore } from '../inbound';
import { rawStoreFor } from '../inbound';
import type { AppliedEffect } from './bounce-effects';
import { applyReportEffects, reportReason } from './bounce-effects';
import type { BounceResult } from '../../mail/reply-classifier/bounce-result';
import type { ReportReading } from './classify-report';
import { readReport } from './classify-report';
import type { MatchedBy, MessageCandidates, RecipientMapping, VerpCandidate } from './intake-match';
import { mapResults, messageCandidates } from './intake-match';
import { REPORT_PARSE_BUDGET_MS, withinBudget } from './parse-budget';
import type { BounceJobPayload } from '../../mail/bounce-intake';
import { parseBouncePayload, reportSource } from '../../mail/bounce-intake';
import * as repo from './intake.repository';

/** What processing one report came to. */
export type ReportOutcome =
  | { readonly kind: 'duplicate' }
  | { readonly kind: 'not_a_report' }
  | { readonly kind: 'unmatched'; readonly tried: MessageCandidates }
  | {
      readonly kind: 'matched';
      readonly email: EmailRow;
      readonly matchedBy: MatchedBy;
      readonly mapping: RecipientMapping;
      readonly effects: readonly AppliedEffect[];
    };

/**
 * The message a report is about: envelope VERP, then VERP in its headers, then the
 * quoted Message-ID; always within the report's scope (issue 17, finding 3), which is
 * the protection: a report to `bounce.<domain>` touches only mail sent from `<domain>`.
 * A VERP address names one message (email ids are unique) of the domain of its host; a
 * Message-ID, which a client may choose and anyone who saw the message can quote, finds
 * only mail of a domain in scope, sent by the account that holds that domain verified.
 */
async function findMessage(
  db: Kysely<Database>,
  c: MessageCandidates,
): Promise<{ email: EmailRow; matchedBy: MatchedBy } | undefined> {
  const byVerp: [MatchedBy, readonly VerpCandidate[]][] = [
    ['verp', c.verp],
    ['verp_header', c.verpHeader],
  ];
  for (const [matchedBy, candidates] of byVerp) {
    for (const candidate of candidates) {
      const email = await repo.findEmailOfDomain(db, candidate);
      if (email) return { email, matchedBy };
    }
  }
  if (c.messageId === null) return undefined;
  for (const id of new Set([c.messageId, c.messageId.toLowerCase()])) {
    const email = await repo.findEmailByMessageId(db, id, c.scope);
    if (email) return { email, matchedBy: 'message_id' };
  }
  return undefined;
}

/**
 * Processes one report in one transaction: the `bounce_reports` row (keyed by the
 * bytes' SHA-256) and every effect commit together, so a repeated report, a retried
 * job or a re-run after a crash applies nothing twice.
 */
export async function processReport(
  db: Kysely<Database>,
  input: {
    readonly payload: BounceJobPayload;
    readonly raw: Buffer;
    /** The VERP tag key (`verpKey(SECRET_KEY)`). */
    readonly verpKey: Buffer;
  },
): Promise<ReportOutcome> {
  const { payload, raw } = input;
  const sha256 = crypto.createHash('sha256').update(raw).digest('hex');
  const reading: ReportReading = withinBudget(REPORT_PARSE_BUDGET_MS, () => readReport(raw));
  const tried = messageCandidates({
    rcptTo: payload.rcptTo,
    raw,
    originalMessageId: reading.originalMessageId,
    verpKey: input.verpKey,
  });
  return db.transaction().execute(async (trx): Promise<ReportOutcome> => {
    const at = isoNow();
    const found = reading.results.length > 0 ? await findMessage(trx, tried) : undefined;
    const outcome = reading.results.length === 0 ? 'not_a_report' : found ? 'matched' : 'unmatched';
    const recorded = await repo.insertReport(trx, {
      sha256,
      source: reportSource(payload),
      outcome,
      user_id: found?.email.user_id ?? null,
      email_id: found?.email.id ?? null,
      matched_by: found?.matchedBy ?? null,
      original_message_id: reading.originalMessageId,
      results: JSON.stringify(reading.results),
      size: raw.length,
      received_at: payload.receivedAt,
      processed_at: at,
    });
    if (!recorded) return { kind: 'duplicate' };
    if (outcome === 'not_a_report') return { kind: 'not_a_report' };
    if (!found) return { kind: 'unmatched', tried };
    const recipients = await delivery.listRecipients(trx, found.email.id);
    const mapping = mapResults({
      results: reading.results,
      recipients: recipients.map((r) => r.address),
      originalRecipients: reading.originalRecipients,
    });
    const effects = await applyReportEffects(trx, found.email, mapping.mapped, at);
    return { kind: 'matched', email: found.email, matchedBy: found.matchedBy, mapping, effects };
  });
}

function resultFields(r: BounceResult): Record<string, unknown> {
  return { kind: r.kind, status: r.status, smtpCode: r.smtpCode, reason: r.reason, action: r.action };
}

function logOutcome(log: Logger, payload: BounceJobPayload, o: ReportOutcome): void {
  const base = { sha256: payload.sha256, source: reportSource(payload), remoteIp: payload.remoteIp };
  if (o.kind === 'duplicate') log.info({ event: 'bounce_duplicate', ...base }, 'report processed before');
  else if (o.kind === 'not_a_report') log.info({ event: 'bounce_not_a_report', ...base }, 'not a report');
  else if (o.kind === 'unmatched') {
    log.warn({ event: 'bounce_unmatched', ...base, tried: o.tried }, 'report not tied to a message');
  } else {
    const where = { ...base, emailId: o.email.id, userId: o.email.user_id, matchedBy: o.matchedBy };
    for (const e of o.effects) {
      const line = {
        event: e.plan.logEvent,
        ...where,
        recipient: e.recipient,
        ...resultFields(e.result),
        response: reportReason(e.result),
        applied: e.applied,
        from: e.from,
        to: e.to,
        suppressed: e.suppressed,
      };
      if (e.plan.logEvent === 'hard_bounce' || e.plan.logEvent === 'complaint')
        log.warn(line, e.plan.logEvent);
      else log.info(line, e.plan.logEvent);
    }
    for (const r of o.mapping.unmapped) {
      log.warn(
        { event: 'bounce_recipient_unmatched', ...where, recipient: r.recipient, ...resultFields(r) },
        'report names no recipient of the message',
      );
    }
  }
}

/** The report's bytes, or undefined when it was processed meanwhile (a content-addressed copy another job removed). */
async function readReportBytes(
  db: Kysely<Database>,
  rawStore: RawStore,
  payload: BounceJobPayload,
  log: Logger,
): Promise<Buffer | undefined> {
  const raw = await rawStore.get(payload.rawPath);
  if (raw !== undefined || (await repo.isReportProcessed(db, payload.sha256))) return raw;
  log.error({ event: 'bounce_report_missing', sha256: payload.sha256, rawPath: payload.rawPath });
  throw new PermanentJobError(`raw report ${payload.rawPath} is missing`);
}

/**
 * `bounce-processing`: one stored report from the MX or `POST /internal/bounces`. The
 * raw copy is deleted once its processing committed; `bounce_reports` keeps the reading.
 */
export function createBounceHandler(deps: {
  readonly db: Kysely<Database>;
  readonly config: Pick<AppConfig, 'secretKey' | 'dataDir'>;
}): JobHandler {
  const key = verpKey(deps.config.secretKey);
  const rawStore = rawStoreFor(deps.db, deps.config.dataDir);
  return async (job, ctx) => {
    const payload = parseBouncePayload(job.payload);
    if (!payload) throw new PermanentJobError('bounce-processing payload does not parse');
    const log = ctx.logger.child({ module: 'bounces' });
    const raw = (await repo.isReportProcessed(deps.db, payload.sha256))
      ? undefined
      : await readReportBytes(deps.db, rawStore, payload, log);
    // Reading the report is synchronous work on attacker text: a stall in it is this job's.
    const outcome: ReportOutcome = raw
      ? await cpuWork(ctx, () => processReport(deps.db, { payload, raw, verpKey: key }))
      : { kind: 'duplicate' };
    logOutcome(log, payload, outcome);
    await rawStore.delete(payload.rawPath).catch((err: unknown) => {
      log.warn({ event: 'bounce_raw_delete_failed', rawPath: payload.rawPath, error: String(err) });
    });
  };
}

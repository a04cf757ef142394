import type { Kysely } from 'kysely';
import type { DNSResolver } from 'mailauth';
import type { AppConfig } from '../../config';
import type { Database, InboundAttachmentsTable } from '../../db/schema';
import { WriteBatcher } from '../../db/write-batcher';
import type { InboundIntakePayload } from './intake-payload';
import { isoNow } from '../../shared/clock';
import type { DnsResolver } from '../../shared/dns-resolver';
import { createDnsResolver } from '../../shared/dns-resolver';
import { newId } from '../../shared/ids';
import type { JobHandler } from '../../jobs/job-handler';
import { isPermanentJobError, PermanentJobError } from '../../jobs/job-handler';
import { recordOutbox } from '../webhooks';
import type { AuthResults } from './authenticate-message';
import { authenticateMessage } from './authenticate-message';
import { cachedMailauthResolver } from './dns-cache';
import { inboundLimit } from './inbound-limit';
import { accountExists, findInboundIdByRawPath, insertInbound } from './inbound.repository';
import type { ParsedInbound } from './parse-message';
import { isUnparsableMessageError } from './mime-shape';
import { parseInbound } from './parse-message';
import type { RawStore } from './raw-store';
import { rawStoreFor } from './raw-store-of';

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

/** Checks the payload the MX wrote (src/mta/inbound-intake.ts); a malformed one cannot be retried into shape. */
export function parseInboundPayload(value: unknown): InboundIntakePayload {
  const p = value as Partial<Record<keyof InboundIntakePayload, unknown>> | null;
  const str = (v: unknown): v is string => typeof v === 'string';
  const strOrNull = (v: unknown): v is string | null => v === null || typeof v === 'string';
  if (
    p === null ||
    typeof p !== 'object' ||
    !str(p.rawPath) ||
    !str(p.sha256) ||
    typeof p.size !== 'number' ||
    !str(p.mailFrom) ||
    !isStringArray(p.rcptTo) ||
    !str(p.domainId) ||
    !str(p.userId) ||
    !strOrNull(p.remoteIp) ||
    !strOrNull(p.helo) ||
    !str(p.receivedAt)
  ) {
    throw new PermanentJobError('inbound-processing: malformed payload');
  }
  return p as InboundIntakePayload;
}

export interface ProcessInboundDeps {
  readonly db: Kysely<Database>;
  /** Runs the store transaction; concurrent jobs share one commit (group commit). */
  readonly writes: Pick<WriteBatcher, 'run'>;
  /** mailauth's resolver (the handler's is cached across messages: src/modules/inbound/dns-cache.ts). */
  readonly resolver: DNSResolver;
  /** MAIL_HOSTNAME: the authserv-id of the results. */
  readonly mailHostname: string;
  /** Where the MX put the bytes (files on SQLite, rows on PostgreSQL). */
  readonly rawStore: RawStore;
  /** Wall-clock budget of the authentication (default INBOUND_AUTH_BUDGET_MS: authenticate-message.ts). */
  readonly authBudgetMs?: number | undefined;
}

export type ProcessOutcome =
  | {
      readonly kind: 'stored';
      readonly inboundId: string;
      readonly auth: AuthResults;
      readonly attachments: number;
    }
  | { readonly kind: 'unparsed'; readonly inboundId: string; readonly reason: string }
  | { readonly kind: 'duplicate'; readonly inboundId: string }
  | { readonly kind: 'account-gone' };

/** What one message's row and announcement hold beyond its envelope. */
interface StoredContent {
  readonly parsed: ParsedInbound;
  readonly auth: AuthResults;
  readonly unparsedReason: string | null;
}

/** An unparsed message: its envelope only, no check run (null results: spec, Inbound message). */
function unparsedContent(reason: string): StoredContent {
  return {
    parsed: {
      fromAddress: null,
      fromHeader: null,
      to: [],
      cc: [],
      subject: null,
      messageId: null,
      date: null,
      text: null,
      html: null,
      headers: [],
      attachments: [],
      attachmentsDropped: 0,
    },
    auth: {
      spfResult: null,
      dkimResult: null,
      dmarcResult: null,
      authenticated: false,
      dkimNotChecked: 0,
      overBudget: false,
    },
    unparsedReason: reason,
  };
}

/**
 * Stores one message with its attachments and announces it (`email.received` outbox row),
 * in one transaction (a unit of `deps.writes`: jobs running concurrently share one commit).
 * Resolves with the id of the row that already holds this raw message when there is one.
 */
async function storeInbound(
  deps: Pick<ProcessInboundDeps, 'writes'>,
  p: InboundIntakePayload,
  content: StoredContent,
): Promise<{ inboundId: string; duplicate: boolean; attachments: number }> {
  const { parsed, auth, unparsedReason } = content;
  const inboundId = newId('inb');
  const now = isoNow();
  const attachments: InboundAttachmentsTable[] = parsed.attachments.map((a, position) => ({
    id: newId('att'),
    inbound_id: inboundId,
    user_id: p.userId,
    position,
    filename: a.filename,
    content_type: a.contentType,
    content_id: a.contentId,
    disposition: a.disposition,
    size: a.size,
    sha256: a.sha256,
    content: a.content,
  }));
  const stored = await deps.writes.run(async (trx) => {
    // Re-checked inside the transaction: two runs of one job (an expired lease) must not both insert.
    const raced = await findInboundIdByRawPath(trx, p.rawPath);
    if (raced !== undefined) return raced;
    // A domain deleted between the 250 and now: the message is kept, without its domain.
    const domain = await trx
      .selectFrom('domains')
      .select('id')
      .where('id', '=', p.domainId)
      .executeTakeFirst();
    await insertInbound(
      trx,
      {
        id: inboundId,
        user_id: p.userId,
        domain_id: domain?.id ?? null,
        raw_path: p.rawPath,
        raw_sha256: p.sha256,
        size: p.size,
        mail_from: p.mailFrom,
        rcpt_to: JSON.stringify(p.rcptTo),
        remote_ip: p.remoteIp,
        helo: p.helo,
        from_address: parsed.fromAddress,
        from_header: parsed.fromHeader,
        to_addresses: JSON.stringify(parsed.to),
        cc_addresses: JSON.stringify(parsed.cc),
        subject: parsed.subject,
        message_id: parsed.messageId,
        date: parsed.date,
        text: parsed.text,
        html: parsed.html,
        headers: JSON.stringify(parsed.headers),
        spf_result: auth.spfResult,
        dkim_result: auth.dkimResult,
        dmarc_result: auth.dmarcResult,
        authenticated: auth.authenticated ? 1 : 0,
        attachment_count: attachments.length,
        attachments_dropped: parsed.attachmentsDropped,
        read: 0,
        received_at: p.receivedAt,
        unparsed_reason: unparsedReason,
        created_at: now,
      },
      attachments,
    );
    // docs/webhooks.md: the summary of an inbound message; emailId = inboundId.
    await recordOutbox(trx, {
      userId: p.userId,
      event: 'email.received',
      emailId: inboundId,
      recipient: p.rcptTo[0] ?? null,
      at: p.receivedAt,
      data: {
        inboundId,
        domainId: p.domainId,
        from: parsed.fromAddress ?? p.mailFrom,
        to: parsed.to.length > 0 ? parsed.to : p.rcptTo,
        subject: parsed.subject,
        authenticated: auth.authenticated,
        attachmentCount: attachments.length,
        unparsed: unparsedReason !== null,
        unparsedReason,
      },
    });
    return undefined;
  });
  if (stored !== undefined) return { inboundId: stored, duplicate: true, attachments: 0 };
  return { inboundId, duplicate: false, attachments: attachments.length };
}

/**
 * One accepted message on one receiving domain: parsed, authenticated, stored with its
 * attachments and announced. A message that cannot be parsed (past the parse bounds,
 * mailparser failing) or whose raw bytes are gone is stored unparsed, with its envelope
 * and the reason: a message the MX answered 250 for always becomes a row and an event
 * (docs/inbound.md, "Messages that cannot be parsed"). Idempotent: the row is keyed on
 * its raw file (unique), so a re-run after a crash finds it and does nothing.
 */
export async function processInbound(
  deps: ProcessInboundDeps,
  p: InboundIntakePayload,
): Promise<ProcessOutcome> {
  const existing = await findInboundIdByRawPath(deps.db, p.rawPath);
  if (existing !== undefined) return { kind: 'duplicate', inboundId: existing };
  if (!(await accountExists(deps.db, p.userId))) return { kind: 'account-gone' };

  const raw = await deps.rawStore.get(p.rawPath);
  if (raw === undefined) return storeUnparsed(deps, p, 'the raw message is missing from the store');
  let parsed: ParsedInbound;
  try {
    parsed = await parseInbound(raw);
  } catch (err) {
    if (!isUnparsableMessageError(err)) throw err;
    return storeUnparsed(deps, p, err.reason);
  }
  const auth = await authenticateMessage({
    raw,
    ip: p.remoteIp,
    helo: p.helo,
    mailFrom: p.mailFrom,
    mta: deps.mailHostname,
    resolver: deps.resolver,
    budgetMs: deps.authBudgetMs,
  });
  const stored = await storeInbound(deps, p, { parsed, auth, unparsedReason: null });
  if (stored.duplicate) return { kind: 'duplicate', inboundId: stored.inboundId };
  return { kind: 'stored', inboundId: stored.inboundId, auth, attachments: stored.attachments };
}

/** Stores `p` unparsed with `reason` (its envelope and raw reference only) and announces it. */
export async function storeUnparsed(
  deps: Pick<ProcessInboundDeps, 'writes'>,
  p: InboundIntakePayload,
  reason: string,
): Promise<ProcessOutcome> {
  const stored = await storeInbound(deps, p, unparsedContent(reason));
  if (stored.duplicate) return { kind: 'duplicate', inboundId: stored.inboundId };
  return { kind: 'unparsed', inboundId: stored.inboundId, reason };
}

export interface InboundHandlerDeps {
  readonly db: Kysely<Database>;
  readonly config: AppConfig;
  readonly resolver?: DnsResolver;
  /**
   * The worker's group commit (src/worker/handlers.ts passes the one the job runner
   * claims and settles through), so a message's store joins the same commits as
   * the claims and completions around it. Default: one of its own over `db`.
   */
  readonly writes?: Pick<WriteBatcher, 'run'> | undefined;
  /** Messages processed at once at most (default {@link INBOUND_PARALLEL_JOBS}). */
  readonly parallelJobs?: number | undefined;
  /** Raw bytes of the messages processed at once at most (default {@link INBOUND_PARALLEL_BYTES}). */
  readonly parallelBytes?: number | undefined;
  /** Wall-clock budget of each message's authentication (tests shorten it). */
  readonly authBudgetMs?: number | undefined;
}

/**
 * Many small messages at once: their stores share commits and the runner claims
 * them in batches (issue 11: 8 at once left one commit and one claim per message).
 */
export const INBOUND_PARALLEL_JOBS = 64;
/** Each run holds its message and mailparser's copies: a few large ones at a time. */
export const INBOUND_PARALLEL_BYTES = 32 * 1024 * 1024;

/** The worker's `inbound-processing` handler. */
export function createInboundHandler(deps: InboundHandlerDeps): JobHandler {
  const resolver = cachedMailauthResolver(
    (deps.resolver ?? createDnsResolver({ servers: deps.config.dnsServers })).mailauth,
  );
  // The runner handles several jobs at once: their store transactions share commits.
  const writes = deps.writes ?? new WriteBatcher(deps.db);
  const rawStore = rawStoreFor(deps.db, deps.config.dataDir);
  const limit = inboundLimit(
    deps.parallelJobs ?? INBOUND_PARALLEL_JOBS,
    deps.parallelBytes ?? INBOUND_PARALLEL_BYTES,
  );
  return async (job, ctx) => {
    const payload = parseInboundPayload(job.payload);
    const release = await limit.acquire(payload.size);
    let outcome: ProcessOutcome;
    try {
      outcome = await processInbound(
        {
          db: deps.db,
          writes,
          resolver,
          mailHostname: deps.config.mailHostname,
          rawStore,
          authBudgetMs: deps.authBudgetMs,
        },
        payload,
      );
    } catch (err) {
      // A transient failure (the database busy, a DNS library throwing) is retried; on the
      // last attempt the message is stored unparsed instead of ending as only a dead job.
      if (job.attempts < job.maxAttempts && !isPermanentJobError(err)) throw err;
      // The error itself (it may name tables or hosts) goes to the operator's log, not the account.
      ctx.logger.error(
        { event: 'inbound_processing_failed', err, attempts: job.attempts, domainId: payload.domainId },
        'inbound processing failed on its last attempt: storing the message unparsed',
      );
      outcome = await storeUnparsed(
        { writes },
        payload,
        `processing failed after ${job.attempts} attempt${job.attempts === 1 ? '' : 's'}`,
      );
    } finally {
      release();
    }
    if (outcome.kind === 'stored') {
      ctx.logger.info(
        {
          event: 'inbound_received',
          inboundId: outcome.inboundId,
          domainId: payload.domainId,
          spf: outcome.auth.spfResult,
          dkim: outcome.auth.dkimResult,
          dmarc: outcome.auth.dmarcResult,
          authenticated: outcome.auth.authenticated,
          dkimNotChecked: outcome.auth.dkimNotChecked,
          authOverBudget: outcome.auth.overBudget,
          attachments: outcome.attachments,
          size: payload.size,
        },
        'inbound message stored',
      );
    } else if (outcome.kind === 'unparsed') {
      ctx.logger.warn(
        {
          event: 'inbound_unparsed',
          inboundId: outcome.inboundId,
          domainId: payload.domainId,
          reason: outcome.reason,
          size: payload.size,
          attempts: job.attempts,
        },
        'inbound message stored unparsed',
      );
    } else if (outcome.kind === 'account-gone') {
      await rawStore.delete(payload.rawPath);
      ctx.logger.warn(
        { event: 'inbound_account_gone', userId: payload.userId },
        'account deleted: message dropped',
      );
    }
  };
}

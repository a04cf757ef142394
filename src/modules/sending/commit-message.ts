import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config';
import type { Database, SendMode } from '../../db/schema';
import { AppError, isAppError } from '../../shared/app-error';
import { newId } from '../../shared/ids';
import { insertNewJob } from '../../jobs/enqueue';
import { abuseEvaluationPending, noteAbuseEvaluationEnqueued, requestAbuseEvaluation } from '../abuse';
import type { UserRow } from '../accounts';
import type { DomainRow } from '../domains';
import { findSuppressed } from '../suppressions';
import { suppressedRefusal } from './send-refusals';
import type { Mailbox } from '../../mail/address';
import { emailQueueFailedBy, emailTooLarge } from '../emails';
import type { StoredResponse } from './idempotency';
import { storeIdempotent } from './idempotency';
import type { QuotaUsage } from '../quota';
import { consumeQuota } from '../quota';
import type { QuotaLimits } from '../quota';
import { effectiveLimits } from '../quota';
import type { QueuedEmailRow } from './queued-message.repository';
import { insertQueuedEmail, insertQueuedEvent, insertSubmittedRaw } from './queued-message.repository';
import { emailSendJob } from '../delivery';
import { resolveSendingDomain } from './sending-domain';
import { isSimulatedSuppressed } from '../../mail/simulator';
import { apiKeyDomainRestricted } from '../api-keys';

/**
 * The send pipeline shared by the API (send-email.ts) and SMTP submission
 * (submit-message.ts), issue 10: recipient screening, then ONE transaction that
 * resolves the sending domain, checks suppressions and size, consumes quota and
 * writes the message, its recipients, the `queued` event and the `email-send`
 * job. Nothing before the commit has side effects, and it resolves only after
 * the commit returned, so a 202 or a 250 means on disk.
 */

/** The one transaction: a WriteBatcher (group commit) or a plain kysely transaction. */
export interface TransactionRunner {
  /** `lockKey`: the account, so a group commit takes its units' quota locks in one order. */
  run<T>(work: (trx: Kysely<Database>) => Promise<T>, lockKey?: string): Promise<T>;
}

import type { Screening } from './recipient-screening';

export interface CommitDeps {
  readonly writes: TransactionRunner;
  readonly config: Pick<
    AppConfig,
    'emailMaxSizeBytes' | 'rateLimitEmailsPerHour' | 'rateLimitEmailsPerDay' | 'newAccountEmailsPerHour'
  >;
}

export interface AttachmentToStore {
  readonly filename: string;
  readonly contentType: string;
  readonly cid: string | null;
  readonly bytes: Buffer;
}

/** The message row's own fields; ids, owner, domain, Message-ID, status and times are filled in here. */
export type MessageFields = Pick<
  QueuedEmailRow,
  | 'source'
  | 'from_address'
  | 'from_header'
  | 'subject'
  | 'reply_to'
  | 'headers'
  | 'tags'
  | 'metadata'
  | 'html'
  | 'text'
  | 'scheduled_at'
>;

export interface MessageToCommit {
  /** `newId('email')`, chosen by the caller (it can appear in the Message-ID). */
  readonly id: string;
  /** RFC 3339 acceptance time: created_at, the event's time, the 202's createdAt. */
  readonly now: string;
  /** The sender's account as authentication loaded it. */
  readonly user: UserRow;
  readonly apiKeyId: string | null;
  /**
   * The sending key's mode (issue 21; absent: `live`). `test` may send from a domain
   * not yet verified, counts against quota buckets of its own and is captured.
   */
  readonly mode?: SendMode | undefined;
  /** The one domain the API key may send from (issue 20); null or absent: any of the account's. */
  readonly onlyDomainId?: string | null | undefined;
  /** The sender: its domain must be on the account, verified, and allow its local part. */
  readonly from: Mailbox;
  /**
   * The screened recipients, or the refusal the caller's own checks (recipients,
   * reply-to) produced. Those checks need no SQL and run before the transaction;
   * the refusal is raised at its place in the spec's order, after the domain's.
   */
  readonly screening: Screening;
  /** The Message-ID header value, which may name the sending domain. */
  readonly messageId: (domain: DomainRow) => string;
  /** Bytes counted against EMAIL_MAX_SIZE_BYTES, and how the refusal names them. */
  readonly size: { readonly bytes: number; readonly text: string };
  readonly fields: MessageFields;
  readonly attachments: readonly AttachmentToStore[];
  /**
   * SMTP submission: the header-cleaned message, delivered as stored (its length
   * is the row's size_bytes). Built once the checks have passed.
   */
  readonly stored?: ((messageId: string) => Buffer) | undefined;
  /** The `queued` timeline entry's text. */
  readonly queuedMessage: string;
  /** The API's Idempotency-Key, stored with the message in the same transaction. */
  readonly idempotency?:
    { readonly key: string; readonly requestHash: string; readonly response: StoredResponse } | undefined;
}

/** What one committed message gives back. */
export interface CommittedMessage {
  readonly usage: QuotaUsage;
  readonly domain: DomainRow;
}

/**
 * The spec's pipeline from "resolve sending domain" on, all inside the ONE
 * transaction (a unit of the WriteBatcher's group commit in the API): the domain
 * checks, the screening's refusal if any, suppressions, size, quota, then the
 * writes. Reading inside the transaction costs less than separate autocommit
 * reads (each one a WAL read transaction of its own) and what was checked cannot
 * change before the commit. A refusal rolls the unit back (nothing written) and
 * is thrown as the spec's error; any other failure is EMAIL_QUEUE_FAILED with the
 * original error as its `cause`.
 */
export async function commitMessage(deps: CommitDeps, m: MessageToCommit): Promise<CommittedMessage> {
  const [done] = await commitMessages(deps, [m]);
  if (!done) throw emailQueueFailedBy(new Error('no message committed'));
  return done;
}

/**
 * Several messages in the same ONE transaction (POST /v1/emails/batch): all or
 * nothing. Each runs the whole pipeline in order, so quota is consumed message
 * after message and the batch is refused when its total does not fit. A refusal
 * names the message by its position in `details.index`.
 */
export async function commitMessages(
  deps: CommitDeps,
  ms: readonly MessageToCommit[],
): Promise<CommittedMessage[]> {
  const first = ms[0];
  if (!first) return [];
  const userId = first.user.id;
  const acceptedAt = new Date(first.now);
  // Abuse signals are re-evaluated after sends, at most once a minute per account.
  const evaluate = abuseEvaluationPending(userId, acceptedAt);
  const limits = effectiveLimits(first.user, deps.config, acceptedAt.getTime());
  let done: CommittedMessage[];
  try {
    done = await deps.writes.run(async (trx) => {
      const out: CommittedMessage[] = [];
      for (const [index, m] of ms.entries()) {
        try {
          out.push(await writeMessage(trx, deps.config, m, limits));
        } catch (err) {
          throw ms.length > 1 && isAppError(err) ? atIndex(err, index) : err;
        }
      }
      if (evaluate) await requestAbuseEvaluation(trx, userId, acceptedAt);
      return out;
    }, userId);
  } catch (err) {
    if (isAppError(err)) throw err;
    throw emailQueueFailedBy(err);
  }
  if (evaluate) noteAbuseEvaluationEnqueued(userId, acceptedAt);
  return done;
}

/** A batch's refusal, saying which message it is about. */
export function atIndex(err: AppError, index: number): AppError {
  return new AppError({
    code: err.code,
    status: err.status,
    message: `[${index}] ${err.message}`,
    details: { ...err.details, index },
    headers: err.headers,
    cause: err.cause,
  });
}

async function writeMessage(
  trx: Kysely<Database>,
  config: CommitDeps['config'],
  m: MessageToCommit,
  limits: QuotaLimits,
): Promise<CommittedMessage> {
  const userId = m.user.id;
  const mode = m.mode ?? 'live';
  const domain = await resolveSendingDomain(trx, userId, m.from, { allowUnverified: mode === 'test' });
  if (m.onlyDomainId && domain.id !== m.onlyDomainId) {
    throw apiKeyDomainRestricted(`This API key may not send from ${domain.domain}`, {
      domainId: domain.id,
      allowedDomainId: m.onlyDomainId,
    });
  }
  if (!m.screening.ok) throw m.screening.refusal;
  const recipients = m.screening.recipients;
  const addresses = recipients.map((r) => r.address);
  // suppressed@ the simulator's domain behaves as an address on the suppression list.
  const suppressed = [
    ...(await findSuppressed(trx, userId, addresses)),
    ...addresses.filter(isSimulatedSuppressed).map((email) => ({ email, type: 'simulated', since: null })),
  ];
  if (suppressed.length > 0) throw suppressedRefusal(suppressed);
  if (m.size.bytes > config.emailMaxSizeBytes) {
    throw emailTooLarge(`${m.size.text} ${m.size.bytes} bytes; the limit is ${config.emailMaxSizeBytes}`, {
      size: m.size.bytes,
      limit: config.emailMaxSizeBytes,
    });
  }
  const usage = await consumeQuota(trx, {
    userId,
    domainId: domain.id,
    apiKeyId: m.apiKeyId,
    mode,
    emailId: m.id,
    count: recipients.length,
    limits,
    now: Date.parse(m.now),
  });
  const messageId = m.messageId(domain);
  const stored = m.stored?.(messageId);
  await insertQueuedEmail(
    trx,
    {
      ...m.fields,
      id: m.id,
      user_id: userId,
      domain_id: domain.id,
      api_key_id: m.apiKeyId,
      message_id: messageId,
      size_bytes: stored?.length ?? m.size.bytes,
      status: 'queued',
      smtp_response: null,
      created_at: m.now,
      updated_at: m.now,
      sent_at: null,
      delivered_at: null,
      mode,
      unverified_domain: domain.status === 'VERIFIED' ? 0 : 1,
    },
    recipients.map((r) => ({ id: newId('rcpt'), address: r.address, name: r.name, type: r.type })),
    m.attachments.map((a, position) => ({
      id: newId('att'),
      email_id: m.id,
      position,
      filename: a.filename,
      content_type: a.contentType,
      cid: a.cid,
      content: a.bytes,
      size_bytes: a.bytes.length,
    })),
  );
  if (stored !== undefined) await insertSubmittedRaw(trx, m.id, stored);
  await insertQueuedEvent(trx, {
    id: newId('evt'),
    email_id: m.id,
    user_id: userId,
    recipient: null,
    type: 'queued',
    message: m.queuedMessage,
    created_at: m.now,
    tls: null,
    node: null,
  });
  const scheduledAt = m.fields.scheduled_at;
  await insertNewJob(trx, emailSendJob(m.id, scheduledAt ? new Date(scheduledAt) : undefined), m.now);
  if (m.idempotency) await storeIdempotent(trx, { userId, mode, ...m.idempotency });
  return { usage, domain };
}

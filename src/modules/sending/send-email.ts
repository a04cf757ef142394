import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config';
import type { Database, SendMode } from '../../db/schema';
import type { AppError } from '../../shared/app-error';
import { isAppError } from '../../shared/app-error';
import { isoNow } from '../../shared/clock';
import { storageGuardFor } from '../../shared/disk-space';
import { newId } from '../../shared/ids';
import type { Logger } from '../../shared/logger';
import type { UserRow } from '../accounts';
import type { Mailbox } from '../../mail/address';
import { MAILBOX_FORMS, parseMailbox } from '../../mail/address';
import type { ApiSend, SendCommitter } from './api-send';
import { atIndex } from './commit-message';
import type { GivenRecipient, Screening } from './recipient-screening';
import { screen, screenRecipients } from './recipient-screening';
import { emailQueueFailed, emailQueueFailedBy, invalidFromAddress, invalidRecipient } from '../emails';
import type { SendEmailInput } from './emails.schemas';
import type { IdempotencyScope, StoredResponse } from './idempotency';
import { replayIdempotent } from './idempotency';
import { resolveSendingDomain } from './sending-domain';
import type { QuotaUsage } from '../quota';

export interface SendDeps {
  readonly db: Kysely<Database>;
  /** Where the commit step runs: the api's writer thread (src/api/api-writer.ts). */
  readonly committer: SendCommitter;
  readonly config: AppConfig;
  readonly log: Logger;
  /** The sender's account, as authentication loaded it for this request. */
  readonly user: UserRow;
  readonly apiKeyId: string | null;
  /** The key's mode: `test` mail is captured (issue 21). */
  readonly mode: SendMode;
  /** The domain the API key is held to (issue 20), null when any. */
  readonly onlyDomainId?: string | null | undefined;
  /** The Idempotency-Key and the SHA-256 of the raw request body, when the client sent a key. */
  readonly idempotency: { readonly key: string; readonly requestHash: string } | undefined;
}

/** The `email_queued` log event's fields (the route writes them on the request's access line). */
export interface QueuedLogFields {
  readonly emailId: string;
  readonly userId: string;
  readonly domainId: string;
  readonly recipients: number;
  readonly scheduledAt: string | null;
  readonly mode: SendMode;
}

export interface SendResult extends StoredResponse {
  readonly usage: QuotaUsage | null;
  readonly replayed: boolean;
  /** Set when this request queued messages (not for a replay). */
  readonly queued?: readonly QueuedLogFields[] | undefined;
  /** Test mode sent from a domain not yet verified (any message of a batch). */
  readonly unverifiedDomain?: boolean | undefined;
}

/** The stored answer to an earlier send with this request's Idempotency-Key, in the caller's scope. */
function earlierAnswer(deps: SendDeps): Promise<StoredResponse | undefined> {
  const { idempotency } = deps;
  if (idempotency === undefined) return Promise.resolve(undefined);
  const scope: IdempotencyScope = { mode: deps.mode, onlyDomainId: deps.onlyDomainId ?? null };
  return replayIdempotent(deps.db, deps.user.id, scope, idempotency.key, idempotency.requestHash);
}

/** Retry-After of a send refused under the free-space floor: the floor is re-read every second. */
const STORAGE_RETRY_AFTER_S = 30;

function asList(v: string | string[] | undefined): string[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

function givenRecipients(input: SendEmailInput): GivenRecipient[] {
  return (['to', 'cc', 'bcc'] as const).flatMap((type) =>
    asList(input[type]).map((value, i) => ({ type, value, field: `${type}[${i}]` })),
  );
}

function replyToList(input: SendEmailInput): string[] {
  return asList(input.replyTo).map((value, i) => {
    const mailbox = parseMailbox(value);
    if (!mailbox)
      throw invalidRecipient(`replyTo[${i}] is not a valid address (${MAILBOX_FORMS})`, {
        field: `replyTo[${i}]`,
        value,
      });
    return value.trim();
  });
}

/** One message of a send, ready for the commit step, with what the screening concluded. */
interface PreparedSend {
  readonly send: ApiSend;
  readonly screening: Screening;
  readonly from: Mailbox;
}

/** The checks that need no SQL (from, recipients, reply-to, size) and the message as the commit step takes it. */
function prepareSend(
  deps: Pick<SendDeps, 'config' | 'user' | 'apiKeyId' | 'onlyDomainId' | 'mode'>,
  input: SendEmailInput,
  id: string,
  now: string,
): PreparedSend {
  const { config } = deps;
  const from = parseMailbox(input.from);
  if (!from) {
    throw invalidFromAddress(`from is not a usable address (${MAILBOX_FORMS}): ${input.from}`, {
      field: 'from',
    });
  }
  let replyTo: string[] = [];
  const screening = screen(() => {
    const recipients = screenRecipients(
      givenRecipients(input),
      config.emailMaxRecipients,
      (count) => `At most ${config.emailMaxRecipients} recipients (to + cc + bcc); got ${count}`,
    );
    replyTo = replyToList(input);
    return recipients;
  });

  const attachments = (input.attachments ?? []).map((a) => ({
    filename: a.filename,
    contentType: a.contentType ?? 'application/octet-stream',
    cid: a.cid ?? null,
    bytes: typeof a.content === 'string' ? Buffer.from(a.content, 'base64') : Buffer.from(a.content),
  }));
  const size =
    Buffer.byteLength(input.html ?? '') +
    Buffer.byteLength(input.text ?? '') +
    attachments.reduce((n, a) => n + a.bytes.length, 0);
  const scheduledAt = input.scheduledAt === undefined ? null : new Date(input.scheduledAt).toISOString();
  const send: ApiSend = {
    id,
    now,
    user: deps.user,
    apiKeyId: deps.apiKeyId,
    onlyDomainId: deps.onlyDomainId ?? null,
    mode: deps.mode,
    from,
    recipients: screening.ok ? screening.recipients : [],
    size: { bytes: size, text: 'Bodies plus attachments are' },
    fields: {
      source: 'api',
      from_address: from.address,
      from_header: input.from.trim(),
      subject: input.subject,
      reply_to: replyTo.length > 0 ? JSON.stringify(replyTo) : null,
      headers: input.headers ? JSON.stringify(input.headers) : null,
      tags: input.tags ? JSON.stringify(input.tags) : null,
      metadata: input.metadata ? JSON.stringify(input.metadata) : null,
      html: input.html ?? null,
      text: input.text ?? null,
      scheduled_at: scheduledAt,
    },
    attachments,
    queuedMessage: scheduledAt ? `scheduled for ${scheduledAt}` : 'accepted',
  };
  return { send, screening, from };
}

/**
 * Issue 17 finding 6: under the free-space floor nothing is committed (the
 * spec's retryable EMAIL_QUEUE_FAILED), so the disk keeps room for the mail
 * already accepted. Where the volume is stays in the log, not in the answer.
 * Twice the messages: their rows, and their copy in the WAL until the checkpoint.
 */
async function refuseUnderDiskFloor(deps: SendDeps, bytes: number): Promise<void> {
  const shortage = await storageGuardFor(deps.config).shortage({ bytes: 2 * bytes });
  if (shortage === undefined) return;
  deps.log.warn(
    { event: 'email_refused_disk_floor', userId: deps.user.id, reason: shortage },
    'disk under its floor',
  );
  throw emailQueueFailed(
    'The server is low on storage; nothing was queued and no quota was used. Retry later.',
    { reason: 'insufficient_storage' },
    { 'Retry-After': String(STORAGE_RETRY_AFTER_S) },
  );
}

/**
 * Runs the commit step, or raises a screening refusal the main thread already knows
 * at its place in the spec's order (after the domain's checks, one read) without a
 * trip through the writer thread. A concurrent request with the same Idempotency-Key
 * that committed first is answered as it was.
 */
async function commitOrReplay<T>(
  deps: SendDeps,
  prepared: readonly PreparedSend[],
  commit: () => Promise<T>,
): Promise<T | StoredResponse> {
  const { db } = deps;
  const userId = deps.user.id;
  try {
    const refused = prepared.findIndex((p) => !p.screening.ok);
    const failed = prepared[refused];
    if (failed && !failed.screening.ok) {
      const { refusal } = failed.screening;
      // The domains of the messages before it come first in the spec's order.
      for (const [index, p] of prepared.slice(0, refused + 1).entries()) {
        await resolveSendingDomain(db, userId, p.from, { allowUnverified: deps.mode === 'test' }).catch(
          (err: unknown) => {
            throw isAppError(err) ? batchError(prepared, err, index) : emailQueueFailedBy(err);
          },
        );
      }
      throw isAppError(refusal) ? batchError(prepared, refusal, refused) : refusal;
    }
    return await commit();
  } catch (err) {
    if (!isAppError(err) || err.code !== 'EMAIL_QUEUE_FAILED') throw err;
    const replay = await earlierAnswer(deps).catch(() => undefined);
    if (replay) return replay;
    deps.log.error({ event: 'email_queue_failed', err: err.cause, userId }, 'could not queue message');
    throw err;
  }
}

function batchError(prepared: readonly PreparedSend[], err: AppError, index: number): AppError {
  return prepared.length > 1 ? atIndex(err, index) : err;
}

/**
 * POST /v1/emails after body validation and authentication: the Idempotency-Key
 * replay, the checks that need no SQL (from, recipients, reply-to, size), then the
 * shared commit step (commit-message.ts), which applies the spec's order (domain,
 * verified, recipients, suppressions, size, quota) inside ONE transaction that
 * writes the message, its recipients, the `queued` event and the `email-send` job.
 * 202 only after it returns. The result's `queued` is the `email_queued` log event,
 * which the caller writes (the route: on the request's one access line).
 */
export async function sendEmail(deps: SendDeps & { readonly input: SendEmailInput }): Promise<SendResult> {
  const userId = deps.user.id;
  const idempotency = deps.idempotency;
  const replay = await earlierAnswer(deps);
  if (replay) return { ...replay, usage: null, replayed: true };
  const id = newId('email');
  const now = isoNow();
  const prepared = prepareSend(deps, deps.input, id, now);
  const response: StoredResponse = { status: 202, body: { id, status: 'queued', createdAt: now } };
  await refuseUnderDiskFloor(deps, prepared.send.size.bytes);
  const send: ApiSend = { ...prepared.send, idempotency: idempotency && { ...idempotency, response } };
  const committed = await commitOrReplay(deps, [prepared], () => deps.committer.commit(send));
  if (!('usage' in committed)) return { ...committed, usage: null, replayed: true };
  const { usage, domainId, unverifiedDomain } = committed;
  const scheduledAt = send.fields.scheduled_at;
  const recipients = send.recipients.length;
  const queued = [{ emailId: id, userId, domainId, recipients, scheduledAt, mode: deps.mode }];
  return { ...response, usage, replayed: false, queued, unverifiedDomain };
}

/**
 * POST /v1/emails/batch: every message through sendEmail's checks, then ONE commit
 * (commitMessages): all are queued or none is, the quota counts the whole batch, and
 * the Idempotency-Key covers the batch (stored with its first message).
 */
export async function sendEmailBatch(
  deps: SendDeps & { readonly inputs: readonly SendEmailInput[] },
): Promise<SendResult> {
  const userId = deps.user.id;
  const idempotency = deps.idempotency;
  const replay = await earlierAnswer(deps);
  if (replay) return { ...replay, usage: null, replayed: true };
  const now = isoNow();
  const prepared = deps.inputs.map((input, index) => {
    try {
      return prepareSend(deps, input, newId('email'), now);
    } catch (err) {
      throw isAppError(err) && deps.inputs.length > 1 ? atIndex(err, index) : err;
    }
  });
  const data = prepared.map((p) => ({ id: p.send.id, status: 'queued', createdAt: now }));
  const response: StoredResponse = { status: 202, body: { data } };
  await refuseUnderDiskFloor(
    deps,
    prepared.reduce((n, p) => n + p.send.size.bytes, 0),
  );
  const sends = prepared.map((p, i) =>
    i === 0 && idempotency ? { ...p.send, idempotency: { ...idempotency, response } } : p.send,
  );
  const committed = await commitOrReplay(deps, prepared, () => deps.committer.commitBatch(sends));
  if (!Array.isArray(committed)) return { ...committed, usage: null, replayed: true };
  const queued = sends.map((send, i) => ({
    emailId: send.id,
    userId,
    domainId: committed[i]?.domainId ?? '',
    recipients: send.recipients.length,
    scheduledAt: send.fields.scheduled_at,
    mode: deps.mode,
  }));
  const unverifiedDomain = committed.some((c) => c.unverifiedDomain);
  return { ...response, usage: committed.at(-1)?.usage ?? null, replayed: false, queued, unverifiedDomain };
}

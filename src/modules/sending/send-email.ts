import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config';
import type { Database, SendMode } from '../../db/schema';
import { isAppError } from '../../shared/app-error';
import { isoNow } from '../../shared/clock';
import { storageGuardFor } from '../../shared/disk-space';
import { newId } from '../../shared/ids';
import type { Logger } from '../../shared/logger';
import type { UserRow } from '../accounts/accounts.repository';
import { MAILBOX_FORMS, parseMailbox } from '../emails/address';
import type { ApiSend, Committed, SendCommitter } from './api-send';
import type { GivenRecipient } from './commit-message';
import { screen, screenRecipients } from './commit-message';
import {
  emailQueueFailed,
  emailQueueFailedBy,
  invalidFromAddress,
  invalidRecipient,
} from '../emails/emails.errors';
import type { SendEmailInput } from './emails.schemas';
import type { StoredResponse } from './idempotency';
import { replayIdempotent } from './idempotency';
import { resolveSendingDomain } from './sending-domain';
import type { QuotaUsage } from '../quota/quota';

export interface SendDeps {
  readonly db: Kysely<Database>;
  /** Where the commit step runs: the api's writer thread (src/http/api-writer.ts). */
  readonly committer: SendCommitter;
  readonly config: AppConfig;
  readonly log: Logger;
  /** The sender's account, as authentication loaded it for this request. */
  readonly user: UserRow;
  readonly apiKeyId: string | null;
  /** The key's mode: `test` mail is captured (issue 21). */
  readonly mode: SendMode;
  readonly input: SendEmailInput;
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
  /** Set when this request queued a message (not for a replay). */
  readonly queued?: QueuedLogFields | undefined;
  /** Test mode sent from a domain not yet verified. */
  readonly unverifiedDomain?: boolean | undefined;
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

/**
 * POST /v1/emails after body validation and authentication: the Idempotency-Key
 * replay, the checks that need no SQL (from, recipients, reply-to, size), then the
 * shared commit step (commit-message.ts), which applies the spec's order (domain,
 * verified, recipients, suppressions, size, quota) inside ONE transaction that
 * writes the message, its recipients, the `queued` event and the `email-send` job.
 * 202 only after it returns. The result's `queued` is the `email_queued` log event,
 * which the caller writes (the route: on the request's one access line).
 */
export async function sendEmail(deps: SendDeps): Promise<SendResult> {
  const { db, config, input, user } = deps;
  const userId = user.id;
  const idempotency = deps.idempotency;
  if (idempotency !== undefined) {
    const replay = await replayIdempotent(db, userId, idempotency.key, idempotency.requestHash);
    if (replay) return { ...replay, usage: null, replayed: true };
  }

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
    bytes: Buffer.from(a.content, 'base64'),
  }));
  const size =
    Buffer.byteLength(input.html ?? '') +
    Buffer.byteLength(input.text ?? '') +
    attachments.reduce((n, a) => n + a.bytes.length, 0);

  const id = newId('email');
  const now = isoNow();
  const scheduledAt = input.scheduledAt === undefined ? null : new Date(input.scheduledAt).toISOString();
  const response: StoredResponse = { status: 202, body: { id, status: 'queued', createdAt: now } };

  // Issue 17 finding 6: under the free-space floor nothing is committed (the
  // spec's retryable EMAIL_QUEUE_FAILED), so the disk keeps room for the mail
  // already accepted. Where the volume is stays in the log, not in the answer.
  // Twice the message: its rows, and their copy in the WAL until the checkpoint.
  const shortage = await storageGuardFor(config).shortage({ bytes: 2 * size });
  if (shortage !== undefined) {
    deps.log.warn({ event: 'email_refused_disk_floor', userId, reason: shortage }, 'disk under its floor');
    throw emailQueueFailed(
      'The server is low on storage; nothing was queued and no quota was used. Retry later.',
      { reason: 'insufficient_storage' },
      { 'Retry-After': String(STORAGE_RETRY_AFTER_S) },
    );
  }

  const send: ApiSend = {
    id,
    now,
    user,
    apiKeyId: deps.apiKeyId,
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
    idempotency: idempotency && { ...idempotency, response },
  };

  let committed: Committed;
  try {
    // A refusal of the screening is known here: raised at its place in the spec's order
    // (after the domain's checks, one read) without a trip through the writer thread.
    if (!screening.ok) {
      await resolveSendingDomain(db, userId, from).catch((err: unknown) => {
        throw isAppError(err) ? err : emailQueueFailedBy(err);
      });
      throw screening.refusal;
    }
    committed = await deps.committer.commit(send);
  } catch (err) {
    if (!isAppError(err) || err.code !== 'EMAIL_QUEUE_FAILED') throw err;
    // A concurrent request with the same Idempotency-Key committed first: answer as it did.
    if (idempotency !== undefined) {
      const replay = await replayIdempotent(db, userId, idempotency.key, idempotency.requestHash).catch(
        () => undefined,
      );
      if (replay) return { ...replay, usage: null, replayed: true };
    }
    deps.log.error({ event: 'email_queue_failed', err: err.cause, userId }, 'could not queue message');
    throw err;
  }
  const { usage, domainId, unverifiedDomain } = committed;
  const recipients = send.recipients.length;
  const queued = { emailId: id, userId, domainId, recipients, scheduledAt, mode: deps.mode };
  return { ...response, usage, replayed: false, queued, unverifiedDomain };
}

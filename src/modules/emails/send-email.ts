import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config';
import type { Database, RecipientType } from '../../db/schema';
import type { WriteBatcher } from '../../db/write-batcher';
import { enqueue } from '../../jobs/enqueue';
import { isAppError } from '../../shared/app-error';
import { isoNow } from '../../shared/clock';
import { newId } from '../../shared/ids';
import type { Logger } from '../../shared/logger';
import { findUserById } from '../accounts/accounts.repository';
import { findSuppressed } from '../suppressions/suppressions.repository';
import { resolveSendingDomain } from './sending-domain';
import { canonicalAddress, parseMailbox } from './address';
import { recordEmailEvent } from './email-events.repository';
import {
  emailQueueFailed,
  emailTooLarge,
  invalidFromAddress,
  invalidRecipient,
  suppressedRecipient,
  tooManyRecipients,
} from './emails.errors';
import type { SendEmailInput } from './emails.schemas';
import { insertEmail } from './emails.repository';
import type { StoredResponse } from './idempotency';
import { replayIdempotent, storeIdempotent } from './idempotency';
import { emailSendJob } from './send-job';
import { requestAbuseEvaluation } from '../abuse/abuse.jobs';
import type { QuotaUsage } from './quota';
import { consumeQuota, effectiveLimits } from './quota';

export interface SendDeps {
  readonly db: Kysely<Database>;
  /** Group commit for the send transaction (one fsync for concurrent sends). */
  readonly writes: WriteBatcher;
  readonly config: AppConfig;
  readonly log: Logger;
  readonly userId: string;
  readonly apiKeyId: string | null;
  readonly input: SendEmailInput;
  /** SHA-256 of the raw request body, for Idempotency-Key comparison. */
  readonly requestHash: string;
  readonly idempotencyKey: string | undefined;
}

export interface SendResult extends StoredResponse {
  readonly usage: QuotaUsage | null;
  readonly replayed: boolean;
}

interface Recipient {
  readonly address: string;
  readonly name: string | null;
  readonly type: RecipientType;
}

function asList(v: string | string[] | undefined): string[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** Parses to/cc/bcc, refuses a bad address naming its field, and keeps the first occurrence of an address. */
function screenRecipients(input: SendEmailInput, max: number): Recipient[] {
  const given = (['to', 'cc', 'bcc'] as const).flatMap((type) =>
    asList(input[type]).map((value, i) => ({ type, value, field: `${type}[${i}]` })),
  );
  if (given.length === 0) throw invalidRecipient('At least one recipient is required', { field: 'to' });
  if (given.length > max) {
    throw tooManyRecipients(`At most ${max} recipients (to + cc + bcc); got ${given.length}`, {
      limit: max,
      count: given.length,
    });
  }
  const seen = new Set<string>();
  const out: Recipient[] = [];
  for (const g of given) {
    const mailbox = parseMailbox(g.value);
    if (!mailbox)
      throw invalidRecipient(`${g.field} is not a valid address: ${g.value}`, {
        field: g.field,
        value: g.value,
      });
    const key = canonicalAddress(mailbox.address);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ address: key, name: mailbox.name, type: g.type });
  }
  return out;
}

function replyToList(input: SendEmailInput): string[] {
  return asList(input.replyTo).map((value, i) => {
    const mailbox = parseMailbox(value);
    if (!mailbox)
      throw invalidRecipient(`replyTo[${i}] is not a valid address`, { field: `replyTo[${i}]`, value });
    return value.trim();
  });
}

/**
 * POST /v1/emails after body validation and authentication, in the spec's order:
 * resolve the sending domain, check it is verified, screen recipients, check
 * suppressions, check size, then ONE transaction consumes quota, writes the
 * message, its recipients, the `queued` event and the `email-send` job. Nothing
 * before the commit has side effects; 202 only after it returns.
 */
export async function sendEmail(deps: SendDeps): Promise<SendResult> {
  const { db, config, input, userId } = deps;
  if (deps.idempotencyKey !== undefined) {
    const replay = await replayIdempotent(db, userId, deps.idempotencyKey, deps.requestHash);
    if (replay) return { ...replay, usage: null, replayed: true };
  }

  const from = parseMailbox(input.from);
  if (!from) throw invalidFromAddress(`from is not a usable address: ${input.from}`, { field: 'from' });
  const domain = await resolveSendingDomain(db, userId, from);

  const recipients = screenRecipients(input, config.emailMaxRecipients);
  const replyTo = replyToList(input);

  const suppressed = await findSuppressed(
    db,
    userId,
    recipients.map((r) => r.address),
  );
  if (suppressed.length > 0) {
    throw suppressedRecipient(`Suppressed: ${suppressed.join(', ')}`, { recipients: suppressed });
  }

  const attachments = (input.attachments ?? []).map((a) => ({
    ...a,
    bytes: Buffer.from(a.content, 'base64'),
  }));
  const size =
    Buffer.byteLength(input.html ?? '') +
    Buffer.byteLength(input.text ?? '') +
    attachments.reduce((n, a) => n + a.bytes.length, 0);
  if (size > config.emailMaxSizeBytes) {
    throw emailTooLarge(
      `Bodies plus attachments are ${size} bytes; the limit is ${config.emailMaxSizeBytes}`,
      {
        size,
        limit: config.emailMaxSizeBytes,
      },
    );
  }

  const user = await findUserById(db, userId);
  if (!user) throw new Error('authenticated user vanished');
  const id = newId('email');
  const now = isoNow();
  const scheduledAt = input.scheduledAt === undefined ? null : new Date(input.scheduledAt).toISOString();
  const response: StoredResponse = { status: 202, body: { id, status: 'queued', createdAt: now } };

  let usage: QuotaUsage;
  try {
    usage = await deps.writes.run(async (trx) => {
      const consumed = await consumeQuota(trx, {
        userId,
        domainId: domain.id,
        apiKeyId: deps.apiKeyId,
        emailId: id,
        count: recipients.length,
        limits: effectiveLimits(user, config),
      });
      await insertEmail(
        trx,
        {
          id,
          user_id: userId,
          domain_id: domain.id,
          api_key_id: deps.apiKeyId,
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
          message_id: `<${id}@${domain.domain}>`,
          size_bytes: size,
          status: 'queued',
          smtp_response: null,
          scheduled_at: scheduledAt,
          created_at: now,
          updated_at: now,
          sent_at: null,
          delivered_at: null,
        },
        recipients.map((r) => ({
          id: newId('rcpt'),
          email_id: id,
          user_id: userId,
          address: r.address,
          name: r.name,
          type: r.type,
          status: 'queued',
          smtp_response: null,
          updated_at: now,
        })),
        attachments.map((a, position) => ({
          id: newId('att'),
          email_id: id,
          position,
          filename: a.filename,
          content_type: a.contentType ?? 'application/octet-stream',
          cid: a.cid ?? null,
          content: a.bytes,
          size_bytes: a.bytes.length,
        })),
      );
      await recordEmailEvent(trx, {
        emailId: id,
        userId,
        type: 'queued',
        message: scheduledAt ? `scheduled for ${scheduledAt}` : 'accepted',
        at: now,
      });
      await enqueue(trx, emailSendJob(id, scheduledAt ? new Date(scheduledAt) : undefined));
      // Abuse signals are re-evaluated after sends, at most once a minute per account.
      await requestAbuseEvaluation(trx, userId);
      if (deps.idempotencyKey !== undefined) {
        await storeIdempotent(trx, {
          userId,
          key: deps.idempotencyKey,
          requestHash: deps.requestHash,
          response,
        });
      }
      return consumed;
    });
  } catch (err) {
    if (isAppError(err)) throw err;
    // A concurrent request with the same Idempotency-Key committed first: answer as it did.
    if (deps.idempotencyKey !== undefined) {
      const replay = await replayIdempotent(db, userId, deps.idempotencyKey, deps.requestHash).catch(
        () => undefined,
      );
      if (replay) return { ...replay, usage: null, replayed: true };
    }
    deps.log.error({ event: 'email_queue_failed', err, userId }, 'could not queue message');
    throw emailQueueFailed();
  }
  deps.log.info(
    {
      event: 'email_queued',
      emailId: id,
      userId,
      domainId: domain.id,
      recipients: recipients.length,
      scheduledAt,
    },
    'email queued',
  );
  return { ...response, usage, replayed: false };
}

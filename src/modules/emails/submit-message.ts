import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { AppConfig } from '../../config';
import type { Database } from '../../db/schema';
import { enqueue } from '../../jobs/enqueue';
import { defineError, isAppError } from '../../shared/app-error';
import { isoNow } from '../../shared/clock';
import { newId } from '../../shared/ids';
import { findUserById } from '../accounts/accounts.repository';
import { requestAbuseEvaluation } from '../abuse/abuse.jobs';
import { findSuppressed } from '../suppressions/suppressions.repository';
import { cleanSubmission, headerValue, parseSubmission, recipientType } from '../../mta/submission-message';
import { canonicalAddress, parseMailbox } from './address';
import { resolveSendingDomain } from './sending-domain';
import { recordEmailEvent } from './email-events.repository';
import {
  emailQueueFailed,
  emailTooLarge,
  invalidFromAddress,
  invalidRecipient,
  suppressedRecipient,
  tooManyRecipients,
} from './emails.errors';
import { insertEmail } from './emails.repository';
import { consumeQuota, effectiveLimits } from './quota';
import { emailSendJob } from './send-job';

export const submitterSuspended = defineError('ACCOUNT_SUSPENDED', 403, 'The account is suspended');

export interface SubmitDeps {
  readonly db: Kysely<Database>;
  /** The one transaction (a WriteBatcher in the API, a plain transaction in the MTA). */
  readonly writes: { run<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> };
  readonly config: AppConfig;
  readonly userId: string;
  readonly apiKeyId: string | null;
}

export interface SubmitInput {
  readonly mailFrom: string;
  readonly rcptTo: readonly string[];
  /** The message as the client sent it (dot-unstuffed). */
  readonly raw: Buffer;
}

/**
 * The SMTP twin of sendEmail(): the same checks in the same order (domain,
 * verified, restrictSenders, recipients, suppressions, size, suspension), then
 * ONE transaction consumes quota and writes the email, its recipients (the
 * envelope; a recipient absent from To/Cc is bcc), the header-cleaned raw
 * message, the `queued` event and the `email-send` job.
 */
export async function submitMessage(deps: SubmitDeps, input: SubmitInput): Promise<{ id: string }> {
  const { db, config, userId } = deps;
  const user = await findUserById(db, userId);
  if (!user) throw new Error('authenticated user vanished');
  if (user.status === 'SUSPENDED') throw submitterSuspended();

  const parsed = parseSubmission(input.raw);
  const fromHeader = headerValue(parsed.fields, 'from') ?? input.mailFrom;
  const from = parseMailbox(fromHeader);
  if (!from) throw invalidFromAddress(`From is not a usable address: ${fromHeader}`, { field: 'from' });
  const domain = await resolveSendingDomain(db, userId, from);

  if (input.rcptTo.length === 0)
    throw invalidRecipient('At least one recipient is required', { field: 'to' });
  if (input.rcptTo.length > config.emailMaxRecipients) {
    throw tooManyRecipients(`At most ${config.emailMaxRecipients} recipients`, {
      limit: config.emailMaxRecipients,
      count: input.rcptTo.length,
    });
  }
  const seen = new Set<string>();
  const recipients: { address: string; type: 'to' | 'cc' | 'bcc' }[] = [];
  for (const rcpt of input.rcptTo) {
    const mailbox = parseMailbox(rcpt);
    if (!mailbox) throw invalidRecipient(`Not a valid address: ${rcpt}`, { value: rcpt });
    const address = canonicalAddress(mailbox.address);
    if (seen.has(address)) continue;
    seen.add(address);
    recipients.push({ address, type: recipientType(parsed.fields, mailbox.address) });
  }

  const suppressed = await findSuppressed(
    db,
    userId,
    recipients.map((r) => r.address),
  );
  if (suppressed.length > 0)
    throw suppressedRecipient(`Suppressed: ${suppressed.join(', ')}`, { recipients: suppressed });

  if (input.raw.length > config.emailMaxSizeBytes) {
    throw emailTooLarge(
      `The message is ${input.raw.length} bytes; the limit is ${config.emailMaxSizeBytes}`,
      {
        size: input.raw.length,
        limit: config.emailMaxSizeBytes,
      },
    );
  }

  const id = newId('email');
  const now = isoNow();
  const existingId = headerValue(parsed.fields, 'message-id');
  const messageId = existingId !== undefined && existingId !== '' ? existingId : `<${id}@${domain.domain}>`;
  const stored = cleanSubmission(
    parsed,
    existingId !== undefined && existingId !== '' ? undefined : messageId,
  );
  const subject = headerValue(parsed.fields, 'subject') ?? '';

  try {
    await deps.writes.run(async (trx) => {
      await consumeQuota(trx, {
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
          source: 'smtp',
          from_address: from.address,
          from_header: fromHeader,
          subject,
          reply_to: null,
          headers: null,
          tags: null,
          metadata: null,
          html: null,
          text: null,
          message_id: messageId,
          size_bytes: stored.length,
          status: 'queued',
          smtp_response: null,
          scheduled_at: null,
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
          name: null,
          type: r.type,
          status: 'queued',
          smtp_response: null,
          updated_at: now,
        })),
        [],
      );
      await sql`INSERT INTO email_raw_messages (email_id, content) VALUES (${id}, ${stored})`.execute(trx);
      await recordEmailEvent(trx, {
        emailId: id,
        userId,
        type: 'queued',
        message: 'accepted over SMTP',
        at: now,
      });
      await enqueue(trx, emailSendJob(id));
      await requestAbuseEvaluation(trx, userId);
    });
  } catch (err) {
    if (isAppError(err)) throw err;
    throw emailQueueFailed();
  }
  return { id };
}

/** The stored message of an SMTP submission, for the worker's hand-off. */
export async function findRawMessage(db: Kysely<Database>, emailId: string): Promise<Buffer | undefined> {
  const result = await sql<{
    content: Buffer;
  }>`SELECT content FROM email_raw_messages WHERE email_id = ${emailId}`.execute(db);
  const row = result.rows[0];
  return row === undefined ? undefined : Buffer.from(row.content);
}

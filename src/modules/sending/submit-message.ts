import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config';
import type { Database } from '../../db/schema';
import {
  cleanSubmission,
  headerValue,
  originatorFieldsRefusal,
  parseSubmission,
  recipientType,
} from './submission-message';
import { defineError } from '../../shared/app-error';
import { isoNow } from '../../shared/clock';
import { clip } from '../../shared/text';
import { newId } from '../../shared/ids';
import { findUserById } from '../accounts';
import { MAILBOX_FORMS, parseMailbox } from '../../mail/address';
import type { TransactionRunner } from './commit-message';
import { commitMessage } from './commit-message';
import { screen, screenRecipients } from './recipient-screening';
import { invalidFromAddress } from '../emails';

export const submitterSuspended = defineError('ACCOUNT_SUSPENDED', 403, 'The account is suspended');

export interface SubmitDeps {
  readonly db: Kysely<Database>;
  /** The one transaction (a WriteBatcher in the API, a plain transaction in the MTA). */
  readonly writes: TransactionRunner;
  readonly config: AppConfig;
  readonly userId: string;
  readonly apiKeyId: string | null;
  /** The domain the API key is held to (issue 20), null when any. */
  readonly onlyDomainId?: string | null | undefined;
}

export interface SubmitInput {
  readonly mailFrom: string;
  readonly rcptTo: readonly string[];
  /** The message as the client sent it (dot-unstuffed). */
  readonly raw: Buffer;
}

/**
 * The SMTP twin of sendEmail(): suspension, then the same shared step
 * (commit-message.ts: domain, verified, restrictSenders, recipients,
 * suppressions, size, quota and the writes in ONE transaction). The recipients
 * are the envelope (one absent from To/Cc is bcc); the header-cleaned message is
 * stored with them.
 */
export async function submitMessage(deps: SubmitDeps, input: SubmitInput): Promise<{ id: string }> {
  const { db, config, userId } = deps;
  const user = await findUserById(db, userId);
  if (!user) throw new Error('authenticated user vanished');
  if (user.status === 'SUSPENDED') throw submitterSuspended();

  const parsed = parseSubmission(input.raw);
  const refusal = originatorFieldsRefusal(parsed.fields);
  if (refusal !== undefined) throw invalidFromAddress(refusal, { field: 'from' });
  const fromHeader = headerValue(parsed.fields, 'from') ?? input.mailFrom;
  const from = parseMailbox(fromHeader);
  if (!from) {
    throw invalidFromAddress(`From is not a usable address (${MAILBOX_FORMS}): ${clip(fromHeader)}`, {
      field: 'from',
    });
  }

  const screening = screen(() =>
    screenRecipients(
      input.rcptTo.map((rcpt) => {
        const mailbox = parseMailbox(rcpt);
        // A recipient absent from To/Cc is bcc; an unusable one is refused by the screening.
        return { value: rcpt, type: mailbox ? recipientType(parsed.fields, mailbox.address) : 'to' };
      }),
      config.emailMaxRecipients,
      () => `At most ${config.emailMaxRecipients} recipients`,
    ),
  );

  const id = newId('email');
  const existingId = headerValue(parsed.fields, 'message-id');
  const hasId = existingId !== undefined && existingId !== '';
  await commitMessage(deps, {
    id,
    now: isoNow(),
    user,
    apiKeyId: deps.apiKeyId,
    onlyDomainId: deps.onlyDomainId ?? null,
    from,
    screening,
    messageId: (domain) => (hasId ? existingId : `<${id}@${domain.domain}>`),
    size: { bytes: input.raw.length, text: 'The message is' },
    fields: {
      source: 'smtp',
      from_address: from.address,
      from_header: fromHeader,
      subject: headerValue(parsed.fields, 'subject') ?? '',
      reply_to: null,
      headers: null,
      tags: null,
      metadata: null,
      html: null,
      text: null,
      scheduled_at: null,
    },
    attachments: [],
    stored: (messageId) => cleanSubmission(parsed, hasId ? undefined : messageId),
    queuedMessage: 'accepted over SMTP',
  });
  return { id };
}

import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { brandingForSend } from '../branding';
import { appendFooter } from '../branding';
import type { EmailRow, RecipientRow } from '../emails';
import { oneClickHeaders, prependHeaders } from '../unsubscribe';
import * as repo from './delivery.repository';
import { buildMime, mimeInputFrom } from './mime-builder';
import { findRawMessage } from './raw-message.repository';

/**
 * The message bytes handed to the MTA, before it adds its DKIM-Signature and Received
 * headers: an SMTP submission as the client wrote it (header-cleaned at submission), an
 * API message built from its stored fields with the account's branding footer as it is now
 * (added at build time, so an edit applies to mail not yet sent). Both get the domain's
 * one-click unsubscribe pair when it applies (issue 22 item 5). The worker's hand-off
 * and GET /v1/emails/{id}/raw both use it, so the download is what delivery builds.
 */
export async function messageBytes(deps: {
  readonly db: Kysely<Database>;
  readonly baseUrl: string;
  /** `unsubscribeKey(SECRET_KEY)`, for the one-click URL's token. */
  readonly unsubscribeKey: Buffer;
  readonly email: EmailRow;
  readonly recipients: readonly Pick<RecipientRow, 'id' | 'address' | 'name' | 'type'>[];
}): Promise<Buffer> {
  const { db, email } = deps;
  const oneClick = { db, baseUrl: deps.baseUrl, key: deps.unsubscribeKey };
  if (email.source === 'smtp') {
    const submitted = await findRawMessage(db, email.id);
    if (submitted === undefined) throw new Error('the submitted message is missing');
    return prependHeaders(submitted, await oneClickHeaders(oneClick, email, deps.recipients, submitted));
  }
  const attachments = await repo.listAttachments(db, email.id);
  const footer = await brandingForSend({ db, baseUrl: deps.baseUrl, userId: email.user_id });
  const input = mimeInputFrom(email, deps.recipients, attachments);
  const added = await oneClickHeaders(oneClick, email, deps.recipients, email.headers);
  return buildMime({
    ...input,
    headers: { ...input.headers, ...added },
    ...appendFooter({ html: input.html, text: input.text }, footer),
  });
}

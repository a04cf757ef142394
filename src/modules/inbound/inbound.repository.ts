import type { Kysely, Selectable } from 'kysely';
import type { Database, InboundAttachmentsTable, InboundMessagesTable } from '../../db/schema';
import { containsIgnoringCase } from '../../db/text-match';

export type InboundRow = Selectable<InboundMessagesTable>;
/** An attachment without its bytes. */
export type AttachmentMeta = Omit<Selectable<InboundAttachmentsTable>, 'content'>;

export async function insertInbound(
  db: Kysely<Database>,
  message: InboundMessagesTable,
  attachments: readonly InboundAttachmentsTable[],
): Promise<void> {
  await db.insertInto('inbound_messages').values(message).execute();
  for (const a of attachments) await db.insertInto('inbound_attachments').values(a).execute();
}

export async function findInboundIdByRawPath(
  db: Kysely<Database>,
  rawPath: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('inbound_messages')
    .select('id')
    .where('raw_path', '=', rawPath)
    .executeTakeFirst();
  return row?.id;
}

/** Whether the account a job names still exists (it may be deleted between the 250 and the job). */
export async function accountExists(db: Kysely<Database>, userId: string): Promise<boolean> {
  const user = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
  return user !== undefined;
}

/** `inbound-processing` jobs that ended failed, newest first (index jobs_claim). */
export async function listFailedInboundJobs(
  db: Kysely<Database>,
  limit: number,
): Promise<{ id: string; payload: string }[]> {
  return db
    .selectFrom('jobs')
    .select(['id', 'payload'])
    .where('queue', '=', 'inbound-processing')
    .where('state', '=', 'failed')
    .orderBy('run_at', 'desc')
    .limit(limit)
    .execute();
}

export async function findInbound(
  db: Kysely<Database>,
  userId: string,
  id: string,
): Promise<InboundRow | undefined> {
  return db
    .selectFrom('inbound_messages')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function listAttachmentMeta(
  db: Kysely<Database>,
  inboundIds: readonly string[],
): Promise<AttachmentMeta[]> {
  if (inboundIds.length === 0) return [];
  return db
    .selectFrom('inbound_attachments')
    .select([
      'id',
      'inbound_id',
      'user_id',
      'position',
      'filename',
      'content_type',
      'content_id',
      'disposition',
      'size',
      'sha256',
    ])
    .where('inbound_id', 'in', inboundIds)
    .orderBy('inbound_id')
    .orderBy('position')
    .execute();
}

export async function findAttachment(
  db: Kysely<Database>,
  userId: string,
  inboundId: string,
  attachmentId: string,
): Promise<Selectable<InboundAttachmentsTable> | undefined> {
  return db
    .selectFrom('inbound_attachments')
    .selectAll()
    .where('id', '=', attachmentId)
    .where('inbound_id', '=', inboundId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export interface InboundListQuery {
  readonly userId: string;
  readonly unread: boolean;
  readonly domainId: string | undefined;
  readonly search: string | undefined;
  /** Only ids before this one (newest first). */
  readonly beforeId: string | undefined;
  readonly limit: number;
}

/** Spec: `search` over subject, from and to (the To header and the envelope recipients). */
const SEARCHED = ['subject', 'from_address', 'from_header', 'to_addresses', 'rcpt_to'] as const;

/** Newest first; one row more than `limit`, so the caller knows whether there is a next page. */
export async function listInbound(db: Kysely<Database>, q: InboundListQuery): Promise<InboundRow[]> {
  let query = db.selectFrom('inbound_messages').selectAll().where('user_id', '=', q.userId);
  if (q.unread) query = query.where('read', '=', 0);
  if (q.domainId !== undefined) query = query.where('domain_id', '=', q.domainId);
  if (q.beforeId !== undefined) query = query.where('id', '<', q.beforeId);
  if (q.search !== undefined && q.search !== '') {
    const search = q.search;
    query = query.where((eb) => eb.or(SEARCHED.map((column) => containsIgnoringCase(column, search))));
  }
  return query
    .orderBy('id', 'desc')
    .limit(q.limit + 1)
    .execute();
}

export async function setRead(
  db: Kysely<Database>,
  userId: string,
  id: string,
  read: boolean,
): Promise<boolean> {
  const result = await db
    .updateTable('inbound_messages')
    .set({ read: read ? 1 : 0 })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Deletes the message and (cascade) its attachments; resolves with its raw file, if it existed. */
export async function deleteInbound(
  db: Kysely<Database>,
  userId: string,
  id: string,
): Promise<string | undefined> {
  const row = await db
    .deleteFrom('inbound_messages')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning('raw_path')
    .executeTakeFirst();
  return row?.raw_path;
}

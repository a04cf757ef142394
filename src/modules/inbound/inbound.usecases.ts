import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Logger } from '../../shared/logger';
import type { Actor } from '../audit';
import { recordAudit } from '../audit';
import { emailPartNotFound } from '../emails';
import { attachmentNotFound, inboundNotFound } from './inbound.errors';
import * as repo from './inbound.repository';
import type { InboundSummary, InboundView } from './inbound-view';
import { inboundSummary, inboundView } from './inbound-view';
import type { RawStore } from './raw-store';

export interface InboundPage {
  readonly data: InboundSummary[];
  readonly hasMore: boolean;
  readonly lastId: string | undefined;
}

export async function listInboundViews(args: {
  db: Kysely<Database>;
  query: repo.InboundListQuery;
}): Promise<InboundPage> {
  const rows = await repo.listInbound(args.db, args.query);
  const page = rows.slice(0, args.query.limit);
  return { data: page.map(inboundSummary), hasMore: rows.length > page.length, lastId: page.at(-1)?.id };
}

interface ReadChange {
  readonly db: Kysely<Database>;
  readonly actor: Actor;
  readonly userId: string;
  readonly id: string;
  readonly read: boolean;
}

/** Sets the read state and audits it, in one transaction; false when the message is not the account's. */
async function setReadAudited(change: ReadChange, via: 'open' | 'mark'): Promise<boolean> {
  return change.db.transaction().execute(async (trx) => {
    if (!(await repo.setRead(trx, change.userId, change.id, change.read))) return false;
    await recordAudit(trx, {
      actor: change.actor,
      userId: change.userId,
      action: change.read ? 'inbound.marked_read' : 'inbound.marked_unread',
      resource: 'inbound',
      resourceId: change.id,
      details: { via },
    });
    return true;
  });
}

/** Spec, Inbound read state: retrieving a message marks it read (audited when it was unread). */
export async function openInbound(args: {
  db: Kysely<Database>;
  actor: Actor;
  userId: string;
  id: string;
}): Promise<InboundView> {
  const row = await repo.findInbound(args.db, args.userId, args.id);
  if (row === undefined) throw inboundNotFound();
  if (row.read === 0) await setReadAudited({ ...args, read: true }, 'open');
  const attachments = await repo.listAttachmentMeta(args.db, [row.id]);
  return inboundView({ ...row, read: 1 }, attachments);
}

export async function markInbound(args: ReadChange): Promise<InboundView> {
  if (!(await setReadAudited(args, 'mark'))) throw inboundNotFound();
  const row = await repo.findInbound(args.db, args.userId, args.id);
  if (row === undefined) throw inboundNotFound();
  return inboundView(row, await repo.listAttachmentMeta(args.db, [row.id]));
}

/**
 * The message row and its attachments go in one statement (cascade), audited in its
 * transaction; the raw
 * copy after the commit, since this row owns it (one copy per job, see
 * docs/inbound.md). A failed delete leaves an orphan copy, logged (retention
 * sweeps it), never a row without its raw message.
 */
export async function deleteInboundMessage(args: {
  db: Kysely<Database>;
  rawStore: RawStore;
  log: Logger;
  actor: Actor;
  userId: string;
  id: string;
}): Promise<{ id: string; deleted: true }> {
  const rawPath = await args.db.transaction().execute(async (trx) => {
    const deleted = await repo.deleteInbound(trx, args.userId, args.id);
    if (deleted === undefined) throw inboundNotFound();
    await recordAudit(trx, {
      actor: args.actor,
      userId: args.userId,
      action: 'inbound.deleted',
      resource: 'inbound',
      resourceId: args.id,
    });
    return deleted;
  });
  try {
    await args.rawStore.delete(rawPath);
  } catch (err) {
    args.log.warn(
      {
        event: 'inbound_raw_delete_failed',
        inboundId: args.id,
        error: err instanceof Error ? err.message : String(err),
      },
      'could not delete the raw message',
    );
  }
  return { id: args.id, deleted: true };
}

export async function getAttachment(args: {
  db: Kysely<Database>;
  userId: string;
  id: string;
  attachmentId: string;
}): Promise<{ filename: string | null; contentType: string; content: Buffer }> {
  const row = await repo.findAttachment(args.db, args.userId, args.id, args.attachmentId);
  if (row === undefined) throw attachmentNotFound();
  return { filename: row.filename, contentType: row.content_type, content: row.content };
}

export async function getRaw(args: {
  db: Kysely<Database>;
  rawStore: RawStore;
  userId: string;
  id: string;
}): Promise<Buffer> {
  const row = await repo.findInbound(args.db, args.userId, args.id);
  if (row === undefined) throw inboundNotFound();
  const raw = await args.rawStore.get(row.raw_path);
  if (raw === undefined && row.unparsed_reason !== null) {
    // Stored unparsed because the bytes were already gone when the worker came to it.
    throw inboundNotFound('The raw bytes of this message were missing when it was processed');
  }
  // A row owns its raw copy (docs/inbound.md): one without it is damage, not a missing resource.
  if (raw === undefined) throw new Error(`raw message of ${row.id} is missing`);
  return raw;
}

/** The received html or text body, for the preview route. Reading a preview does not mark it read. */
export async function inboundPart(args: {
  db: Kysely<Database>;
  userId: string;
  id: string;
  part: 'html' | 'text';
}): Promise<string> {
  const row = await repo.findInbound(args.db, args.userId, args.id);
  if (row === undefined) throw inboundNotFound();
  const body = args.part === 'html' ? row.html : row.text;
  if (body === null) throw emailPartNotFound(`The message has no ${args.part} part`);
  return body;
}

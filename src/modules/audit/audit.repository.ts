import type { Kysely, Selectable } from 'kysely';
import type { AuditLogTable, Database } from '../../db/schema';
import { isoNow } from '../../shared/clock';
import { newId } from '../../shared/ids';

/** Who did it, from where: every state change carries this (spec: Audit entry). */
export interface Actor {
  readonly type: AuditLogTable['actor_type'];
  readonly id: string | null;
  readonly ip: string | null;
  readonly userAgent: string | null;
}

export const systemActor: Actor = { type: 'system', id: null, ip: null, userAgent: null };

export interface AuditEntryInput {
  readonly actor: Actor;
  /** The account the entry belongs to (null for platform-level entries). */
  readonly userId: string | null;
  readonly action: string;
  readonly resource: string;
  readonly resourceId: string | null;
  readonly details?: Record<string, unknown>;
}

export interface AuditEntry {
  readonly id: string;
  readonly userId: string | null;
  readonly actorType: string;
  readonly actorId: string | null;
  readonly ip: string | null;
  readonly userAgent: string | null;
  readonly action: string;
  readonly resource: string;
  readonly resourceId: string | null;
  readonly details: unknown;
  readonly createdAt: string;
}

export async function recordAudit(db: Kysely<Database>, entry: AuditEntryInput): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      id: newId('aud'),
      user_id: entry.userId,
      actor_type: entry.actor.type,
      actor_id: entry.actor.id,
      ip: entry.actor.ip,
      user_agent: entry.actor.userAgent,
      action: entry.action,
      resource: entry.resource,
      resource_id: entry.resourceId,
      details: entry.details === undefined ? null : JSON.stringify(entry.details),
      created_at: isoNow(),
    })
    .execute();
}

export interface AuditQuery {
  readonly userId?: string | undefined;
  readonly action?: string | undefined;
  readonly since?: string | undefined;
  readonly limit: number;
}

export async function listAudit(db: Kysely<Database>, query: AuditQuery): Promise<AuditEntry[]> {
  let q = db
    .selectFrom('audit_log')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit);
  if (query.userId !== undefined) q = q.where('user_id', '=', query.userId);
  if (query.action !== undefined) q = q.where('action', '=', query.action);
  if (query.since !== undefined) q = q.where('created_at', '>=', query.since);
  return (await q.execute()).map(auditEntry);
}

function auditEntry(r: Selectable<AuditLogTable>): AuditEntry {
  return {
    id: r.id,
    userId: r.user_id,
    actorType: r.actor_type,
    actorId: r.actor_id,
    ip: r.ip,
    userAgent: r.user_agent,
    action: r.action,
    resource: r.resource,
    resourceId: r.resource_id,
    details: r.details === null ? null : (JSON.parse(r.details) as unknown),
    createdAt: r.created_at,
  };
}

export interface AuditPageQuery {
  readonly action?: string | undefined;
  /** The acting user, key or operator (`actor_id`). */
  readonly actorId?: string | undefined;
  /** The resource acted on (`resource_id`): an account, key, domain, webhook … id. */
  readonly target?: string | undefined;
  /** The account the entry belongs to. */
  readonly userId?: string | undefined;
  /** created_at at or after, and before, these RFC 3339 UTC instants. */
  readonly from?: string | undefined;
  readonly to?: string | undefined;
  /** Only ids older than this one (the cursor): newest first, audit ids sort by time. */
  readonly beforeId?: string | undefined;
  readonly limit: number;
}

/** The operator's audit screen: every account's entries, newest first, keyset on the id. */
export async function listAuditPage(db: Kysely<Database>, query: AuditPageQuery): Promise<AuditEntry[]> {
  let q = db.selectFrom('audit_log').selectAll();
  if (query.action !== undefined) q = q.where('action', '=', query.action);
  if (query.actorId !== undefined) q = q.where('actor_id', '=', query.actorId);
  if (query.target !== undefined) q = q.where('resource_id', '=', query.target);
  if (query.userId !== undefined) q = q.where('user_id', '=', query.userId);
  if (query.from !== undefined) q = q.where('created_at', '>=', query.from);
  if (query.to !== undefined) q = q.where('created_at', '<', query.to);
  if (query.beforeId !== undefined) q = q.where('id', '<', query.beforeId);
  return (await q.orderBy('id', 'desc').limit(query.limit).execute()).map(auditEntry);
}

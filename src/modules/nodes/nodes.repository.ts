import type { Kysely } from 'kysely';
import type { Database, EmailStatus, NodesTable } from '../../db/schema';

/**
 * The `nodes` table (migration 020): each node's heartbeat, and the reads of the
 * hand-back sweep. Portable SQL only (SQLite and PostgreSQL alike): timestamps are
 * RFC 3339 text, which compares in time order.
 */

export interface Heartbeat {
  readonly name: string;
  /** Comma-separated roles: `api,worker,mta`. */
  readonly roles: string;
  readonly at: string;
  /** A row last seen before this is a node that was gone: its `started_at` starts again. */
  readonly restartedIfSeenBefore: string;
}

/** Upserts the node's row: one statement, so every process of a node may beat at any time. */
export async function beat(db: Kysely<Database>, h: Heartbeat): Promise<void> {
  await db
    .insertInto('nodes')
    .values({ name: h.name, roles: h.roles, started_at: h.at, last_seen_at: h.at })
    .onConflict((oc) =>
      oc.column('name').doUpdateSet((eb) => ({
        roles: eb.ref('excluded.roles'),
        // Several processes (and clocks) beat for one node: the row keeps the latest.
        last_seen_at: eb
          .case()
          .when('nodes.last_seen_at', '<', eb.ref('excluded.last_seen_at'))
          .then(eb.ref('excluded.last_seen_at'))
          .else(eb.ref('nodes.last_seen_at'))
          .end(),
        started_at: eb
          .case()
          .when('nodes.last_seen_at', '<', h.restartedIfSeenBefore)
          .then(eb.ref('excluded.started_at'))
          .else(eb.ref('nodes.started_at'))
          .end(),
      })),
    )
    .execute();
}

export async function listNodes(db: Kysely<Database>): Promise<NodesTable[]> {
  return db.selectFrom('nodes').selectAll().orderBy('name').execute();
}

/** Nodes whose last heartbeat is before `cutoff`, except `self` (the node asking is alive). */
export async function findSilentNodes(
  db: Kysely<Database>,
  cutoff: string,
  self: string,
): Promise<NodesTable[]> {
  return db
    .selectFrom('nodes')
    .selectAll()
    .where('last_seen_at', '<', cutoff)
    .where('name', '<>', self)
    .orderBy('name')
    .execute();
}

/** Statuses of a message whose MTA hand-off is not finished: a recipient is `sent` or `deferred`. */
export const HELD_STATUSES: readonly EmailStatus[] = ['sent', 'deferred'];

export interface HeldEmail {
  readonly id: string;
  readonly user_id: string;
  readonly status: EmailStatus;
  readonly attempts: number;
}

/** Up to `limit` messages `node`'s MTA took and has not finished (index emails_mta_node). */
export async function findEmailsHeldBy(
  db: Kysely<Database>,
  node: string,
  limit: number,
): Promise<HeldEmail[]> {
  return db
    .selectFrom('emails')
    .select(['id', 'user_id', 'status', 'attempts'])
    .where('mta_node', '=', node)
    .where('status', 'in', HELD_STATUSES)
    .orderBy('id')
    .limit(limit)
    .execute();
}

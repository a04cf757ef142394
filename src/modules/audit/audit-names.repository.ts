import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { AuditEntry } from './audit.repository';

/**
 * The words an audit entry's ids stand for, so the operator's audit screen names people and
 * things (issue 29 item 12): an account by its email, a domain by its name, a key by its name,
 * a webhook by its URL, an invitation or suppression by its address. An id whose row is gone
 * (a deleted domain, key …) has no name.
 */
export interface AuditNames {
  /** The acting account's email (a user, or an operator signed in to the dashboard). */
  readonly actorEmail: string | null;
  /** The acting API key's name. */
  readonly actorKeyName: string | null;
  /** The account the entry belongs to, by its email. */
  readonly accountEmail: string | null;
  /** The resource acted on, by its name. */
  readonly resourceName: string | null;
}

type NamedTable = 'users' | 'domains' | 'api_keys' | 'webhooks' | 'invitations' | 'suppressions';

/** Which table names a resource. */
const RESOURCE_TABLES: Readonly<Record<string, NamedTable>> = {
  user: 'users',
  branding: 'users',
  domain: 'domains',
  api_key: 'api_keys',
  webhook: 'webhooks',
  invitation: 'invitations',
  suppression: 'suppressions',
};

/** Each table's naming column, as `name`, for the ids asked. */
function namesIn(db: Kysely<Database>, table: NamedTable, ids: readonly string[]) {
  switch (table) {
    case 'users':
      return db.selectFrom('users').select(['id', 'email as name']).where('id', 'in', ids).execute();
    case 'domains':
      return db.selectFrom('domains').select(['id', 'domain as name']).where('id', 'in', ids).execute();
    case 'api_keys':
      return db.selectFrom('api_keys').select(['id', 'name']).where('id', 'in', ids).execute();
    case 'webhooks':
      return db.selectFrom('webhooks').select(['id', 'url as name']).where('id', 'in', ids).execute();
    case 'invitations':
      return db.selectFrom('invitations').select(['id', 'email as name']).where('id', 'in', ids).execute();
    case 'suppressions':
      return db.selectFrom('suppressions').select(['id', 'email as name']).where('id', 'in', ids).execute();
  }
}

/** The entries with the names of every id they mention, one query per table. */
export async function withAuditNames(
  db: Kysely<Database>,
  entries: readonly AuditEntry[],
): Promise<(AuditEntry & AuditNames)[]> {
  const wanted = new Map<NamedTable, Set<string>>();
  const want = (table: NamedTable, id: string | null) => {
    if (id !== null) wanted.set(table, (wanted.get(table) ?? new Set()).add(id));
  };
  const resourceTable = (e: AuditEntry): NamedTable | undefined => RESOURCE_TABLES[e.resource];
  const actsAsAccount = (e: AuditEntry) => e.actorType === 'user' || e.actorType === 'operator';
  for (const e of entries) {
    want('users', e.userId);
    if (actsAsAccount(e)) want('users', e.actorId);
    if (e.actorType === 'api_key') want('api_keys', e.actorId);
    const table = resourceTable(e);
    if (table) want(table, e.resourceId);
  }
  const found = new Map<NamedTable, Map<string, string>>();
  for (const [table, ids] of wanted) {
    const rows = await namesIn(db, table, [...ids]);
    found.set(table, new Map(rows.map((r) => [r.id, r.name])));
  }
  const lookup = (table: NamedTable | undefined, id: string | null) =>
    table === undefined || id === null ? null : (found.get(table)?.get(id) ?? null);
  return entries.map((e) => ({
    ...e,
    actorEmail: actsAsAccount(e) ? lookup('users', e.actorId) : null,
    actorKeyName: e.actorType === 'api_key' ? lookup('api_keys', e.actorId) : null,
    accountEmail: lookup('users', e.userId),
    resourceName: lookup(resourceTable(e), e.resourceId),
  }));
}

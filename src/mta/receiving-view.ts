import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { ReceivingHost, ReceivingView } from './rcpt-verdict';

/** The columns of a domain row the MX needs. */
export interface ReceivingDomainRow {
  readonly id: string;
  readonly user_id: string;
  readonly domain: string;
  readonly receive_enabled: number;
  readonly inbound_label: string;
  /** JSON array of local parts. */
  readonly addresses: string;
}

/**
 * Only VERIFIED domains count, for receiving and for return paths alike: a
 * domain name can sit on several accounts but is VERIFIED on at most one (the
 * domains module's partial unique index), so an account that merely added
 * someone else's domain never gets its mail.
 */
export async function loadReceivingDomains(db: Kysely<Database>): Promise<ReceivingDomainRow[]> {
  return db
    .selectFrom('domains')
    .select(['id', 'user_id', 'domain', 'receive_enabled', 'inbound_label', 'addresses'])
    .where('status', '=', 'VERIFIED')
    .execute();
}

function localParts(json: string): Set<string> {
  try {
    const parsed = JSON.parse(json) as unknown;
    if (Array.isArray(parsed)) {
      return new Set(parsed.filter((v): v is string => typeof v === 'string').map((v) => v.toLowerCase()));
    }
  } catch {
    /* a malformed list accepts nothing rather than everything */
  }
  return new Set(['']);
}

/** `<inboundLabel>.<domain>`, or the apex for `@` (spec: Domains rules 2 and 7). */
export function receivingHostName(domain: string, inboundLabel: string): string {
  return inboundLabel === '@' ? domain : `${inboundLabel}.${domain}`;
}

/** The return-path host of a domain: the `bounce` CNAME the domains module asks for (spec: rule 5). */
export function returnPathHostName(domain: string): string {
  return `bounce.${domain}`;
}

/**
 * The view rcptVerdict() reads: every return-path host (all local parts), and
 * every receiving host (its `addresses`, empty = all). A receiving host cannot
 * collide with a return path: the domains module refuses `bounce` as a label.
 */
export function buildReceivingView(rows: readonly ReceivingDomainRow[]): ReceivingView {
  const hosts = new Map<string, ReceivingHost>();
  for (const row of rows) {
    hosts.set(returnPathHostName(row.domain), { localParts: new Set(), route: { kind: 'return-path' } });
  }
  for (const row of rows) {
    if (row.receive_enabled !== 1) continue;
    hosts.set(receivingHostName(row.domain, row.inbound_label), {
      localParts: localParts(row.addresses),
      route: { kind: 'receive', domainId: row.id, userId: row.user_id },
    });
  }
  return { host: (name) => hosts.get(name) };
}

export interface ReceivingViewCache {
  /** The current view; the first call waits for the first load. Rejects while no load ever succeeded. */
  current(): Promise<ReceivingView>;
  stop(): void;
}

export interface ReceivingViewCacheOptions {
  readonly load: () => Promise<readonly ReceivingDomainRow[]>;
  /** Reload period; domain changes reach the MX within about this long (spec: Domains rule 6). */
  readonly refreshMs: number;
  readonly onError?: (err: unknown) => void;
}

/**
 * Reloads the whole view every `refreshMs` (a few hundred rows at most, one
 * indexed query), so no change is missed: a PATCH, a verification, a re-check
 * regression, a deletion. Started on first use, so a Haraka without a database
 * (tests of the MX alone) never polls. A failed reload keeps the last good view.
 */
export function createReceivingViewCache(options: ReceivingViewCacheOptions): ReceivingViewCache {
  let view: ReceivingView | undefined;
  let inflight: Promise<ReceivingView> | undefined;
  let timer: NodeJS.Timeout | undefined;

  const reload = (): Promise<ReceivingView> => {
    inflight ??= options
      .load()
      .then((rows) => {
        view = buildReceivingView(rows);
        return view;
      })
      .finally(() => {
        inflight = undefined;
      });
    return inflight;
  };

  const start = (): void => {
    if (timer !== undefined) return;
    timer = setInterval(() => {
      reload().catch((err: unknown) => options.onError?.(err));
    }, options.refreshMs);
    timer.unref();
  };

  return {
    current() {
      start();
      return view !== undefined ? Promise.resolve(view) : reload();
    },
    stop() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    },
  };
}

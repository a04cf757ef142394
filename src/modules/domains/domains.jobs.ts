import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config';
import type { Database } from '../../db/schema';
import type { EnqueueResult } from '../../jobs/enqueue';
import { enqueue } from '../../jobs/enqueue';
import type { DnsResolver } from '../../shared/dns-resolver';
import { createDnsResolver } from '../../shared/dns-resolver';
import type { Logger } from '../../shared/logger';
import * as domains from './domains.repository';
import type { VerificationDeps } from './verify-domain';
import { attemptVerification } from './verify-domain';

export const DNS_RECHECK_QUEUE = 'dns-recheck';

/** Domains fetched per query while sweeping. */
const BATCH = 50;
/** Domains checked at once (each is four or five queries). */
const CONCURRENCY = 4;
/** A sweep stops after this many; the next sweep continues where it stopped. */
const MAX_PER_SWEEP = 1_000;
/** Sweeps run at least this often, so a domain is re-checked at most this late. */
const MAX_CADENCE_S = 600;

export interface RecheckSummary {
  readonly checked: number;
  readonly stillVerified: number;
  readonly regressed: number;
  /** Kept verified because DNS did not answer; retried sooner. */
  readonly lookupFailed: number;
}

export interface RecheckDeps extends VerificationDeps {
  /** Stops the sweep between domains (lease lost, worker stopping). */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Re-verifies every VERIFIED domain whose `next_check_at` has come (spec: Domain
 * status). A required record that is gone or wrong regresses the domain to FAILED:
 * sending stops and the customer must verify again. Idempotent: a domain that was
 * checked is not due again for an interval, so a repeated run finds nothing to do.
 */
export async function recheckDomains(deps: RecheckDeps): Promise<RecheckSummary> {
  const totals = { checked: 0, stillVerified: 0, regressed: 0, lookupFailed: 0 };
  while (totals.checked < MAX_PER_SWEEP && !deps.signal?.aborted) {
    const now = (deps.now?.() ?? new Date()).toISOString();
    const due = await domains.listDueForRecheck(
      deps.db,
      now,
      Math.min(BATCH, MAX_PER_SWEEP - totals.checked),
    );
    if (due.length === 0) break;
    const queue = [...due];
    const worker = async (): Promise<void> => {
      for (let row = queue.shift(); row && !deps.signal?.aborted; row = queue.shift()) {
        const attempt = await attemptVerification(deps, row, 'recheck', null);
        totals.checked++;
        if (attempt.regressed) totals.regressed++;
        else if (attempt.outcome === 'unknown') totals.lookupFailed++;
        else if (attempt.status === 'VERIFIED') totals.stillVerified++;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  }
  return totals;
}

/** How often sweeps run: every DNS_RECHECK_INTERVAL_S, and at least every ten minutes. */
export function recheckCadenceMs(intervalS: number): number {
  return Math.min(intervalS, MAX_CADENCE_S) * 1000;
}

/**
 * Enqueues the sweep of the cadence slot `now` falls in (or the next one). The
 * dedupe key names the slot, so the worker's start, a cron tick and the previous
 * sweep may all call this: one job per slot results.
 */
export async function scheduleDnsRecheck(
  db: Kysely<Database>,
  options: {
    readonly intervalS: number;
    readonly now?: Date | undefined;
    readonly slot?: 'current' | 'next';
  },
): Promise<EnqueueResult> {
  const cadence = recheckCadenceMs(options.intervalS);
  const index =
    Math.floor((options.now ?? new Date()).getTime() / cadence) + (options.slot === 'next' ? 1 : 0);
  const runAt = new Date(index * cadence);
  return enqueue(db, {
    queue: DNS_RECHECK_QUEUE,
    payload: { sweep: runAt.toISOString() },
    runAt,
    dedupeKey: `sweep:${runAt.toISOString()}`,
    maxAttempts: 3,
  });
}

/** What the worker hands a handler (structurally the worker's JobHandler arguments). */
export interface RecheckJobContext {
  readonly signal: AbortSignal;
  readonly logger: Logger;
}

/**
 * The `dns-recheck` queue's handler. It first enqueues the next slot's sweep, so
 * the chain survives this sweep failing, then sweeps the due domains.
 */
export function createDnsRecheckHandler(deps: {
  readonly db: Kysely<Database>;
  readonly config: Pick<
    AppConfig,
    'dnsServers' | 'dnsRecheckIntervalS' | 'spfIncludeHost' | 'bounceHost' | 'mxHost'
  >;
  readonly resolver?: DnsResolver | undefined;
}): (job: { readonly payload: unknown }, ctx: RecheckJobContext) => Promise<void> {
  const { db, config } = deps;
  const resolver = deps.resolver ?? createDnsResolver({ servers: config.dnsServers });
  const hosts = {
    spfIncludeHost: config.spfIncludeHost,
    bounceHost: config.bounceHost,
    mxHost: config.mxHost,
  };
  return async (_job, ctx) => {
    const intervalS = config.dnsRecheckIntervalS;
    await scheduleDnsRecheck(db, { intervalS, slot: 'next' });
    const log = ctx.logger.child({ module: 'domains' });
    const summary = await recheckDomains({ db, resolver, hosts, intervalS, log, signal: ctx.signal });
    log.info({ event: 'dns_recheck_sweep', ...summary }, 'dns re-check sweep');
  };
}

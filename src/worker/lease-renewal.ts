import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { ClaimedJob } from '../jobs/claim';
import { extendLease } from '../jobs/extend-lease';
import type { Logger } from '../shared/logger';

/** A job the runner is running. */
export interface InFlight {
  readonly job: ClaimedJob;
  readonly controller: AbortController;
  /** Set once the handler returned: from then on a failed lease renewal is not a lost lease. */
  settling: boolean;
  done: Promise<void>;
}

/**
 * Renews the leases of the running jobs in one transaction and aborts the handlers whose lease
 * is gone (another runner took the job over after expiry), so two runners never both settle it.
 */
export async function renewLeases(options: {
  readonly db: Kysely<Database>;
  readonly inFlight: ReadonlySet<InFlight>;
  readonly owner: string;
  readonly leaseMs: number;
  readonly logger: Logger;
}): Promise<void> {
  const { db, inFlight, owner, leaseMs, logger } = options;
  try {
    const flights = [...inFlight].filter((f) => !f.settling && !f.controller.signal.aborted);
    const lost = await db.transaction().execute(async (trx) => {
      const out: InFlight[] = [];
      for (const f of flights) if (!(await extendLease(trx, f.job, owner, leaseMs))) out.push(f);
      return out;
    });
    for (const f of lost) {
      if (f.settling || !inFlight.has(f)) continue;
      f.controller.abort(new Error('job lease lost'));
      logger.warn({ event: 'job_lease_lost', queue: f.job.queue, id: f.job.id, attempts: f.job.attempts });
    }
  } catch (err) {
    logger.error({ event: 'job_lease_renewal_failed', err });
  }
}

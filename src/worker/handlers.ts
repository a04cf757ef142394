import type { Kysely } from 'kysely';
import type { AppConfig } from '../config';
import type { Database } from '../db/schema';
import { WriteBatcher } from '../db/write-batcher';
import { createGovernanceHandlers, seedGovernanceSchedules } from '../modules/abuse/abuse.jobs';
import { createBounceHandler } from '../modules/bounces/bounce-job';
import { createDnsRecheckHandler, scheduleDnsRecheck } from '../modules/domains/domains.jobs';
import { createMtaOutcomeHandler } from '../modules/delivery/outcome-job';
import { createEmailSendHandler, createStagedSendHandler } from '../modules/delivery/send-job';
import { createInboundHandler } from '../modules/inbound/inbound.job';
import { createRetentionHandler, seedRetentionSchedule } from '../modules/retention/retention.jobs';
import { createWebhookHandlers, seedWebhookSchedules } from '../modules/webhooks/webhooks.jobs';
import type { HandlerRegistry } from '../jobs/job-handler';
import { createCaptureSigner } from './capture-signer';

export interface HandlerDeps {
  readonly db: Kysely<Database>;
  readonly config: AppConfig;
  /**
   * Group commit for the send and delivery-report handlers (the hot path); shared
   * with the job runner so a job's completion joins the same commits. Default: one
   * over `db`.
   */
  readonly writes?: WriteBatcher | undefined;
}

/**
 * The worker's handler per queue. Each issue that introduces a queue's work adds
 * its entry here; a queue without a handler is not claimed (its jobs wait).
 */
export function createHandlers(deps: HandlerDeps): HandlerRegistry {
  const hot = { ...deps, writes: deps.writes ?? new WriteBatcher(deps.db) };
  const send = { ...hot, sign: createCaptureSigner({ db: deps.db, secretKey: deps.config.secretKey }) };
  return {
    'dns-recheck': createDnsRecheckHandler(deps),
    'email-send': createEmailSendHandler(send),
    'email-send:failed': createStagedSendHandler(send),
    'mta-outcome': createMtaOutcomeHandler(hot),
    'bounce-processing': createBounceHandler(deps),
    // Bounded by count and bytes inside (each run holds its whole message while parsing);
    // its store shares the runner's commits (claims, completions).
    'inbound-processing': createInboundHandler(hot),
    ...createWebhookHandlers(deps),
    ...createGovernanceHandlers(deps),
    retention: createRetentionHandler(deps),
  };
}

/**
 * Recurring work seeded at worker start. Each schedule is idempotent (dedupe keys
 * per time slot), so every worker start may call it.
 */
export async function seedSchedules(deps: HandlerDeps): Promise<void> {
  await scheduleDnsRecheck(deps.db, { intervalS: deps.config.dnsRecheckIntervalS });
  await seedWebhookSchedules(deps.db);
  await seedGovernanceSchedules(deps.db, deps.config);
  await seedRetentionSchedule(deps.db);
}

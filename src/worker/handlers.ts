import type { Kysely } from 'kysely';
import type { AppConfig } from '../config';
import type { Database } from '../db/schema';
import { createGovernanceHandlers, seedGovernanceSchedules } from '../modules/abuse/abuse.jobs';
import { createBounceHandler } from '../modules/bounces/bounce-job';
import { createDnsRecheckHandler, scheduleDnsRecheck } from '../modules/domains/domains.jobs';
import { createMtaOutcomeHandler } from '../modules/emails/outcome-job';
import { createEmailSendHandler, createStagedSendHandler } from '../modules/emails/send-job';
import { createInboundHandler } from '../modules/inbound/inbound.job';
import { createWebhookHandlers, seedWebhookSchedules } from '../modules/webhooks/webhooks.jobs';
import type { HandlerRegistry } from './job-handler';

export interface HandlerDeps {
  readonly db: Kysely<Database>;
  readonly config: AppConfig;
}

/**
 * The worker's handler per queue. Each issue that introduces a queue's work adds
 * its entry here; a queue without a handler is not claimed (its jobs wait).
 */
export function createHandlers(deps: HandlerDeps): HandlerRegistry {
  return {
    'dns-recheck': createDnsRecheckHandler(deps),
    'email-send': createEmailSendHandler(deps),
    'email-send:failed': createStagedSendHandler(deps),
    'mta-outcome': createMtaOutcomeHandler(deps),
    'bounce-processing': createBounceHandler(deps),
    'inbound-processing': createInboundHandler(deps),
    ...createWebhookHandlers(deps),
    ...createGovernanceHandlers(deps),
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
}

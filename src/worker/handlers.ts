import type { Kysely } from 'kysely';
import type { AppConfig, NodeRole } from '../config';
import type { Database } from '../db/schema';
import { WriteBatcher } from '../db/write-batcher';
import { createGovernanceHandlers, seedGovernanceSchedules } from '../modules/abuse/abuse.jobs';
import { createBounceHandler } from '../modules/bounces/bounce-job';
import { createDnsRecheckHandler, scheduleDnsRecheck } from '../modules/domains/domains.jobs';
import { createMtaOutcomeHandler } from '../modules/delivery/outcome-job';
import { createEmailSendHandler, createStagedSendHandler } from '../modules/delivery/send-job';
import { createInboundHandler } from '../modules/inbound/inbound.job';
import { createNodeSweepHandler, scheduleNodeSweep } from '../modules/nodes/nodes.jobs';
import { createRetentionHandler, seedRetentionSchedule } from '../modules/retention/retention.jobs';
import { createWebhookHandlers, seedWebhookSchedules } from '../modules/webhooks/webhooks.jobs';
import type { HandlerRegistry } from '../jobs/job-handler';
import { createCaptureSigner } from './capture-signer';
import type { OutboundSender } from '../sender/outbound-sender';
import { createOutboundSender } from '../sender/outbound-sender';

export interface HandlerDeps {
  readonly db: Kysely<Database>;
  readonly config: AppConfig;
  /**
   * Group commit for the send and delivery-report handlers (the hot path); shared
   * with the job runner so a job's completion joins the same commits. Default: one
   * over `db`.
   */
  readonly writes?: WriteBatcher | undefined;
  /** The node's processes (MAILROOM_NODE_ROLES); default all three. */
  readonly roles?: readonly NodeRole[] | undefined;
  /** OUTBOUND_SENDER=worker: the sender to deliver with; default one from the configuration. */
  readonly sender?: OutboundSender | undefined;
}

/**
 * The worker's handler per queue. Each issue that introduces a queue's work adds
 * its entry here; a queue without a handler is not claimed (its jobs wait).
 * Sends are claimed only on a node that runs an mta: the worker hands mail to the
 * MTA on its own host's loopback (MTA_INJECT_PORT), and the message then belongs
 * to that node's queue (docs/scaling.md, roles); with OUTBOUND_SENDER=worker the
 * worker delivers itself, on any node. Everything else runs anywhere.
 */
export function createHandlers(deps: HandlerDeps): HandlerRegistry {
  const hot = { ...deps, writes: deps.writes ?? new WriteBatcher(deps.db) };
  const sign = createCaptureSigner({ db: deps.db, secretKey: deps.config.secretKey });
  const direct =
    deps.config.outboundSender === 'worker'
      ? {
          sender: deps.sender ?? createOutboundSender(deps.config),
          sign,
          retryIntervalsS: deps.config.mtaRetryIntervals,
        }
      : undefined;
  const send = { ...hot, sign, direct };
  // The worker's own sender needs no MTA beside it: then any node sends.
  const sends =
    (deps.roles ?? ['mta']).includes('mta') || deps.config.outboundSender === 'worker'
      ? {
          'email-send': createEmailSendHandler(send),
          'email-send:failed': createStagedSendHandler(send),
        }
      : {};
  return {
    'dns-recheck': createDnsRecheckHandler(deps),
    ...sends,
    'mta-outcome': createMtaOutcomeHandler(hot),
    'bounce-processing': createBounceHandler(deps),
    // Bounded by count and bytes inside (each run holds its whole message while parsing);
    // its store shares the runner's commits (claims, completions).
    'inbound-processing': createInboundHandler(hot),
    ...createWebhookHandlers(deps),
    ...createGovernanceHandlers(deps),
    retention: createRetentionHandler(hot),
    'node-sweep': createNodeSweepHandler(deps),
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
  await scheduleNodeSweep(deps.db, { slot: 'current' });
}

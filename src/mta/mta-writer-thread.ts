import { serveWriterUnits } from '../db/writer-thread';
import type { MtaOutcomePayload } from '../modules/delivery/mta-outcome';
import { recordDeliveryReports } from './delivery-reports';
import type { IntakeJob } from './inbound-intake';
import { enqueueIntakeJobs } from './inbound-intake';
import type { SubmissionAuthRequest, SubmissionAuthVerdict } from './submission/submission-auth';
import { authenticateSubmitter } from './submission/submission-auth';
import type { SubmissionRequest } from './submission/submission-commit';
import { commitSubmission } from './submission/submission-commit';

/**
 * The Haraka process's writer thread (src/db/writer-thread.ts), started by
 * mta-writer.ts: the delivery reports of the outbound hooks, the MX intake's
 * jobs and SMTP submission (its AUTH and its commit) run here, off Haraka's
 * event loop, where a commit's fsync or a wait for the write lock held by the api
 * or the worker would stall every SMTP session and delivery meanwhile. The
 * commits share one group commit.
 */
// A type, not an interface: a type literal is assignable to UnitMap's index signature.
export type MtaWriterUnits = {
  /** One hook's reports, applied or left to jobs; answers how many are new. */
  readonly 'mta.delivery-reports': {
    readonly request: readonly MtaOutcomePayload[];
    readonly result: number;
  };
  /** One accepted inbound message's jobs; answers how many were created. */
  readonly 'mta.intake': { readonly request: readonly IntakeJob[]; readonly result: number };
  /** AUTH on the submission listener (reads, and the writes of a failure), src/mta/submission/. */
  readonly 'mta.submission-auth': {
    readonly request: SubmissionAuthRequest;
    readonly result: SubmissionAuthVerdict;
  };
  /** One submitted message: the API's checks and writes in one unit; answers its email id. */
  readonly 'mta.submission': { readonly request: SubmissionRequest; readonly result: { id: string } };
};

serveWriterUnits<MtaWriterUnits>({
  // Reports applied here are logged like the worker's (`email_delivered` …), as the mta.
  'mta.delivery-reports': (ctx, payloads) =>
    recordDeliveryReports(
      { writes: ctx.writes, logger: ctx.logger.child({ module: 'emails' }), node: ctx.config.nodeName },
      payloads,
    ),
  'mta.intake': (ctx, jobs) => ctx.writes.run((trx) => enqueueIntakeJobs(trx, jobs)),
  'mta.submission-auth': (ctx, request) => authenticateSubmitter(ctx.db, request),
  'mta.submission': (ctx, request) => commitSubmission(ctx, request),
});

import { readRawBody } from '../../http/body';
import type { ApiDeps } from '../../http/context';
import { RouteGroup } from '../../http/route';
import { validationError } from '../../shared/app-error';
import { isoNow } from '../../shared/clock';
import { commitStagedRaws, rawStoreFor } from '../inbound';
import { enqueueBounceReport } from '../../mail/bounce-intake';
import { BounceAccepted } from './bounces.responses';

/** Reports larger than this are refused (413): real DSNs and ARF reports are far smaller. */
export const MAX_REPORT_BYTES = 10 * 1024 * 1024;

/**
 * `POST /internal/bounces` (spec: Health and operations): a raw report from an MTA
 * pipe or an operator, any content type. It takes the MX's path: the bytes are stored
 * durably (a file on SQLite; on PostgreSQL a row in the job's own transaction), one
 * `bounce-processing` job is enqueued, and 202 is answered only after that commit, so
 * an accepted report is never lost.
 */
export function internalBounceRoutes(deps: ApiDeps): RouteGroup {
  const routes = new RouteGroup(deps, '/internal/bounces', 'Operator');
  const rawStore = rawStoreFor(deps.db, deps.config.dataDir);
  routes.define(
    {
      method: 'post',
      path: '/',
      auth: 'internal',
      operationId: 'submitBounceReport',
      summary: 'Submit a raw bounce or complaint report (DSN, ARF); 202 once stored and queued',
      rawBody: { contentType: 'message/rfc822', description: 'The raw report, any content type' },
      ok: { status: 202, schema: BounceAccepted, description: 'Queued for processing' },
      errors: ['PAYLOAD_TOO_LARGE'],
    },
    async (ctx) => {
      const body = await readRawBody(ctx, MAX_REPORT_BYTES);
      if (body.length === 0)
        throw validationError('The request body must be the raw report', {
          fields: [{ field: '(body)', message: 'must be the raw report' }],
        });
      const stored = await rawStore.put(body);
      const job = await deps.db
        .transaction()
        .execute(async (trx) => {
          await commitStagedRaws(trx, [stored]);
          return enqueueBounceReport(trx, {
            rawPath: stored.ref,
            sha256: stored.sha256,
            size: stored.size,
            mailFrom: null,
            rcptTo: [],
            remoteIp: ctx.ip || null,
            helo: null,
            receivedAt: isoNow(),
          });
        })
        .catch(async (err: unknown) => {
          await rawStore.discard([stored]);
          throw err;
        });
      deps.log.info(
        {
          event: 'bounce_report_received',
          source: 'api',
          jobId: job.id,
          sha256: stored.sha256,
          size: stored.size,
        },
        'bounce report queued',
      );
      ctx.status = 202;
      ctx.body = { id: job.id, status: 'queued' };
    },
  );
  return routes;
}

import { z } from 'zod';
import { requestActor, requireAuth } from '../../http/context';
import { RouteGroup } from '../../http/route';
import { timestamp } from '../../http/response-schema';
import { signalWork } from '../../shared/work-signal';
import { sendDomainTestEmail } from './domain-test-email';
import type { SendRouteDeps } from './send-request';
import { sendDeps } from './send-request';

/** The 202 of POST /v1/domains/{id}/test-email (domain-test-email.ts). */
export const TestEmailSentView = z
  .object({
    id: z.string().describe('The email: `GET /v1/emails/{id}` follows it to `delivered` in the capture.'),
    status: z.literal('queued'),
    createdAt: timestamp,
    from: z.string().describe('`test@<domain>`, or the first listed address when `restrictSenders` is on.'),
    to: z.literal('delivered@simulator.mailroom.invalid'),
    mode: z.literal('test'),
  })
  .meta({ id: 'TestEmailSent' });

/**
 * `POST /v1/domains/{domainId}/test-email`: declared here rather than with the domains' routes
 * because it is a send (the sending module owns sends; domains sit below it).
 */
export function domainTestEmailRoutes(deps: SendRouteDeps): RouteGroup {
  const routes = new RouteGroup(deps, '/v1/domains', 'Domains');
  routes.define(
    {
      method: 'post',
      path: '/:domainId/test-email',
      ids: { domainId: 'dom' },
      auth: 'either',
      // Its effect stays in the sandbox whoever calls: test mode, to the simulator only.
      testKey: true,
      operationId: 'sendDomainTestEmail',
      summary:
        'Send a test email from the domain, in test mode, to delivered@simulator.mailroom.invalid: captured, never delivered',
      ok: { status: 202, schema: TestEmailSentView, description: 'Queued (test mode)' },
      errors: ['DOMAIN_NOT_FOUND', 'SUPPRESSED_RECIPIENT', 'SENDING_LIMIT_EXCEEDED', 'EMAIL_QUEUE_FAILED'],
    },
    async (ctx) => {
      const auth = requireAuth(ctx);
      const send = sendDeps(deps, ctx, auth, Buffer.alloc(0));
      const sent = await sendDomainTestEmail({
        db: send.db,
        committer: send.committer,
        config: send.config,
        log: send.log,
        user: send.user,
        apiKeyId: send.apiKeyId,
        onlyDomainId: send.onlyDomainId,
        actor: requestActor(ctx),
        domainId: ctx.params.domainId ?? '',
      });
      signalWork();
      ctx.status = 202;
      ctx.body = sent;
    },
  );
  return routes;
}

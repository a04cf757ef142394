import Router from '@koa/router';
import { authenticate } from '../../http/authenticate';
import { readBody } from '../../http/body';
import type { ApiDeps, AppState } from '../../http/context';
import { requestActor, requireAuth } from '../../http/context';
import { createSealer } from '../../shared/seal';
import { guardFromConfig } from './address-policy';
import { createDestinationCheck } from './destination-check';
import { createHostResolver } from './host-resolver';
import { createWebhookBody, patchWebhookBody } from './webhooks.schemas';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhookViews,
  updateWebhook,
} from './webhooks.usecases';

/** `/v1/webhooks`: the account's endpoints and their recent delivery attempts. API key or session. */
export function webhookRoutes(deps: ApiDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/v1/webhooks' });
  router.use(authenticate(deps));
  const { config, db } = deps;
  const sealer = createSealer({ secretKey: config.secretKey });
  const checkDestination = createDestinationCheck({
    guard: guardFromConfig(config),
    resolve: createHostResolver({ servers: config.dnsServers }),
  });

  router.post('/', async (ctx) => {
    const { userId } = requireAuth(ctx);
    const input = await readBody(ctx, createWebhookBody);
    ctx.status = 201;
    ctx.body = await createWebhook({ db, userId, actor: requestActor(ctx), sealer, checkDestination, input });
  });

  router.get('/', async (ctx) => {
    const { userId } = requireAuth(ctx);
    ctx.body = { data: await listWebhookViews({ db, userId }) };
  });

  router.get('/:id', async (ctx) => {
    const { userId } = requireAuth(ctx);
    ctx.body = await getWebhook({ db, userId, id: ctx.params.id ?? '' });
  });

  router.patch('/:id', async (ctx) => {
    const { userId } = requireAuth(ctx);
    const input = await readBody(ctx, patchWebhookBody);
    ctx.body = await updateWebhook({
      db,
      userId,
      actor: requestActor(ctx),
      checkDestination,
      id: ctx.params.id ?? '',
      input,
    });
  });

  router.delete('/:id', async (ctx) => {
    const { userId } = requireAuth(ctx);
    ctx.body = await deleteWebhook({ db, userId, actor: requestActor(ctx), id: ctx.params.id ?? '' });
  });

  return router;
}

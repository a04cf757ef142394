import Router from '@koa/router';
import { authenticate } from '../../http/authenticate';
import { readBody } from '../../http/body';
import type { ApiDeps, AppState } from '../../http/context';
import { requestActor, requireAuth } from '../../http/context';
import { createDnsResolver } from '../../shared/dns-resolver';
import { createSealer } from '../../shared/seal';
import { createDomainBody, patchDomainBody } from './domains.schemas';
import type { DomainHosts } from './domains.usecases';
import {
  createDomain,
  deleteDomain,
  getDomain,
  listDomainViews,
  updateDomain,
  verifyDomain,
} from './domains.usecases';

/** `/v1/domains`: sending domains, their DNS records and verification. API key or session. */
export function domainRoutes(deps: ApiDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/v1/domains' });
  router.use(authenticate(deps));
  const { config, db } = deps;
  const hosts: DomainHosts = {
    mailHostname: config.mailHostname,
    mxHost: config.mxHost,
    bounceHost: config.bounceHost,
    spfIncludeHost: config.spfIncludeHost,
  };
  const resolver = createDnsResolver({ servers: config.dnsServers });
  const sealer = createSealer({ secretKey: config.secretKey });
  const log = deps.log.child({ module: 'domains' });

  router.post('/', async (ctx) => {
    const { userId } = requireAuth(ctx);
    const input = await readBody(ctx, createDomainBody);
    ctx.status = 201;
    ctx.body = await createDomain({ db, userId, sealer, hosts, actor: requestActor(ctx), input });
  });

  router.get('/', async (ctx) => {
    const { userId } = requireAuth(ctx);
    ctx.body = { data: await listDomainViews({ db, userId, hosts }) };
  });

  router.get('/:domainId', async (ctx) => {
    const { userId } = requireAuth(ctx);
    ctx.body = await getDomain({ db, userId, hosts, domainId: ctx.params.domainId ?? '' });
  });

  router.patch('/:domainId', async (ctx) => {
    const { userId } = requireAuth(ctx);
    const input = await readBody(ctx, patchDomainBody);
    ctx.body = await updateDomain({
      db,
      userId,
      hosts,
      actor: requestActor(ctx),
      domainId: ctx.params.domainId ?? '',
      input,
    });
  });

  router.delete('/:domainId', async (ctx) => {
    const { userId } = requireAuth(ctx);
    ctx.body = await deleteDomain({
      db,
      userId,
      actor: requestActor(ctx),
      domainId: ctx.params.domainId ?? '',
    });
  });

  router.post('/:domainId/verify', async (ctx) => {
    const { userId } = requireAuth(ctx);
    ctx.body = await verifyDomain({
      db,
      resolver,
      hosts,
      intervalS: config.dnsRecheckIntervalS,
      log,
      userId,
      actor: requestActor(ctx),
      domainId: ctx.params.domainId ?? '',
    });
  });

  return router;
}

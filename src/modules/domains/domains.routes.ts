import { readBody } from '../../http/body';
import type { ApiDeps } from '../../http/context';
import { requestActor, requireAuth } from '../../http/context';
import type { OperationRequest } from '../../http/operation';
import { defineOperation, serveOperation } from '../../http/operation';
import { RouteGroup } from '../../http/route';
import { createDnsResolver } from '../../shared/dns-resolver';
import { createSealer } from '../../shared/seal';
import { createDomainBody, patchDomainBody } from './domains.schemas';
import type { DomainHosts } from './domains.usecases';
import {
  createDomain,
  deleteDomain,
  domainStatusHistory,
  getDomain,
  listDomainViews,
  updateDomain,
  verifyDomain,
} from './domains.usecases';
import {
  DeletedDomain,
  DomainList,
  DomainStatusHistory,
  DomainView,
  VerificationView,
} from './domains.responses';

/** What the domain operations need besides the request. */
export function domainDeps(deps: ApiDeps) {
  const { config, db } = deps;
  const hosts: DomainHosts = {
    mailHostname: config.mailHostname,
    mxHost: config.mxHost,
    bounceHost: config.bounceHost,
    spfIncludeHost: config.spfIncludeHost,
  };
  return {
    db,
    hosts,
    resolver: createDnsResolver({ servers: config.dnsServers }),
    sealer: createSealer({ secretKey: config.secretKey }),
    log: deps.log.child({ module: 'domains' }),
    intervalS: config.dnsRecheckIntervalS,
  };
}

/** The `/v1/domains` operations the Resend surface translates too (src/compat). */
export function domainOperations(deps: ApiDeps) {
  const { db, hosts, resolver, log, intervalS } = domainDeps(deps);
  const byId = ({ params }: OperationRequest) => ({ domainId: params.domainId ?? '' });
  return {
    list: defineOperation({
      method: 'get',
      path: '/',
      auth: 'either',
      operationId: 'listDomains',
      summary: 'List the account’s domains',
      ok: { status: 200, schema: DomainList, description: 'Domains' },
      parse: () => ({}),
      run: async (ctx) => ({ data: await listDomainViews({ db, userId: requireAuth(ctx).userId, hosts }) }),
    }),
    get: defineOperation({
      method: 'get',
      path: '/:domainId',
      ids: { domainId: 'dom' },
      auth: 'either',
      operationId: 'getDomain',
      summary: 'One domain with its records',
      ok: { status: 200, schema: DomainView, description: 'The domain' },
      errors: ['DOMAIN_NOT_FOUND'],
      parse: byId,
      run: (ctx, { domainId }) => getDomain({ db, userId: requireAuth(ctx).userId, hosts, domainId }),
    }),
    remove: defineOperation({
      method: 'delete',
      path: '/:domainId',
      ids: { domainId: 'dom' },
      auth: 'either',
      operationId: 'deleteDomain',
      summary: 'Delete a domain that has never sent mail',
      ok: { status: 200, schema: DeletedDomain, description: 'Deleted' },
      errors: ['DOMAIN_NOT_FOUND', 'DOMAIN_HAS_HISTORY'],
      parse: byId,
      run: (ctx, { domainId }) =>
        deleteDomain({ db, userId: requireAuth(ctx).userId, actor: requestActor(ctx), domainId }),
    }),
    verify: defineOperation({
      method: 'post',
      path: '/:domainId/verify',
      ids: { domainId: 'dom' },
      auth: 'either',
      operationId: 'verifyDomain',
      testKey: true,
      summary: 'Check the published records now; SPF and DKIM passing makes the domain VERIFIED',
      ok: {
        status: 200,
        schema: VerificationView,
        description: 'The verification result (also when not verified)',
      },
      errors: ['DOMAIN_NOT_FOUND', 'DOMAIN_VERIFIED_ELSEWHERE'],
      parse: byId,
      run: (ctx, { domainId }) =>
        verifyDomain({
          db,
          resolver,
          hosts,
          intervalS,
          log,
          userId: requireAuth(ctx).userId,
          actor: requestActor(ctx),
          domainId,
        }),
    }),
  };
}

/** `/v1/domains`: sending domains, their DNS records and verification. API key or session. */
export function domainRoutes(deps: ApiDeps): RouteGroup {
  const routes = new RouteGroup(deps, '/v1/domains', 'Domains');
  const { db, hosts, sealer } = domainDeps(deps);
  const ops = domainOperations(deps);

  routes.define(
    {
      method: 'post',
      path: '/',
      auth: 'either',
      operationId: 'createDomain',
      testKey: true,
      summary: 'Add a sending domain; answers the DNS records to publish',
      body: createDomainBody,
      ok: { status: 201, schema: DomainView, description: 'Added (status PENDING)' },
      errors: ['INVALID_DOMAIN', 'DOMAIN_ALREADY_EXISTS'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      const input = await readBody(ctx, createDomainBody);
      ctx.status = 201;
      ctx.body = await createDomain({ db, userId, sealer, hosts, actor: requestActor(ctx), input });
    },
  );

  serveOperation(routes, ops.list);

  serveOperation(routes, ops.get);

  routes.define(
    {
      method: 'get',
      path: '/:domainId/status-history',
      ids: { domainId: 'dom' },
      auth: 'either',
      operationId: 'getDomainStatusHistory',
      summary: 'The domain’s status changes with their times, newest first (at most 100)',
      ok: { status: 200, schema: DomainStatusHistory, description: 'Status changes' },
      errors: ['DOMAIN_NOT_FOUND'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      ctx.body = await domainStatusHistory({ db, userId, domainId: ctx.params.domainId ?? '' });
    },
  );

  routes.define(
    {
      method: 'patch',
      path: '/:domainId',
      ids: { domainId: 'dom' },
      auth: 'either',
      operationId: 'updateDomain',
      summary: 'Receiving and sender settings',
      body: patchDomainBody,
      ok: { status: 200, schema: DomainView, description: 'Updated domain' },
      errors: ['DOMAIN_NOT_FOUND'],
    },
    async (ctx) => {
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
    },
  );

  serveOperation(routes, ops.remove);

  serveOperation(routes, ops.verify);

  return routes;
}

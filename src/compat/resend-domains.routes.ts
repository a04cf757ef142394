import { z } from 'zod';
import { readBody } from '../http/body';
import type { ApiDeps } from '../http/context';
import { requestActor, requireAuth } from '../http/context';
import type { OperationRequest } from '../http/operation';
import { serveTranslation } from '../http/operation';
import { RouteGroup } from '../http/route';
import type { DnsRecord } from '../modules/domains/dns-records';
import { domainDeps, domainOperations } from '../modules/domains/domains.routes';
import type { DomainView } from '../modules/domains/domains.usecases';
import { createDomain, getDomain, updateDomain } from '../modules/domains/domains.usecases';
import { featureNotImplemented } from './resend-errors';
import { resendPage, resendPageQuery } from './resend-page';
import { RESEND_TAG } from './resend-paths';
import { ResendDeleted, ResendDomain, ResendDomainList, ResendObjectId } from './resend.responses';

const capability = z.enum(['enabled', 'disabled']);
const capabilities = z.strictObject({ sending: capability.optional(), receiving: capability.optional() });

/**
 * Resend's domain options (parseDomainToApiOptions in the SDK). `region`, `custom_return_path`
 * and `tls` are accepted and have no effect: one appliance is one region, its return path is
 * `RETURN_PATH_LABEL`, and outbound TLS follows the MTA's policy (docs/resend-compatibility.md).
 */
const createBody = z.strictObject({
  name: z.string().min(1).max(253),
  region: z.string().max(32).optional(),
  custom_return_path: z.string().max(63).optional(),
  capabilities: capabilities.optional(),
  open_tracking: z.boolean().optional(),
  click_tracking: z.boolean().optional(),
  tls: z.enum(['enforced', 'opportunistic']).optional(),
  tracking_subdomain: z.string().max(63).optional(),
});

const updateBody = createBody.omit({ name: true, region: true, custom_return_path: true });

/** Open and click tracking rewrite the customer's mail; Mailroom does not (issue 20: 501, named). */
function refuseTracking(body: z.infer<typeof updateBody>): void {
  if (body.open_tracking === true || body.click_tracking === true || body.tracking_subdomain !== undefined) {
    throw featureNotImplemented('Open and click tracking is not supported by Mailroom');
  }
}

const RECORD_NAMES: Readonly<Record<DnsRecord['purpose'], string>> = {
  spf: 'SPF',
  dkim: 'DKIM',
  dmarc: 'DMARC',
  return_path: 'Return-Path',
  mx: 'Receiving',
};

function resendRecord(record: DnsRecord, verified: boolean) {
  return {
    record: RECORD_NAMES[record.purpose],
    name: record.host,
    type: record.type,
    value: record.value,
    ttl: String(record.ttl),
    status: verified ? 'verified' : 'pending',
    ...(record.priority === undefined ? {} : { priority: record.priority }),
  };
}

/** Resend's domain object for a Mailroom domain view. */
function resendDomain(view: DomainView) {
  return {
    object: 'domain' as const,
    id: view.id,
    name: view.domain,
    status: view.status.toLowerCase(),
    created_at: view.createdAt,
    region: 'self-hosted',
    capabilities: { sending: 'enabled', receiving: view.receiveEnabled ? 'enabled' : 'disabled' },
    open_tracking: false,
    click_tracking: false,
  };
}

function withRecords(view: DomainView) {
  const verified = view.status === 'VERIFIED';
  return { ...resendDomain(view), records: view.records.map((r) => resendRecord(r, verified)) };
}

/**
 * `/domains` as Resend's SDKs call it. Listing, reading, removing and verifying translate the
 * /v1 operations. Creating and updating stay Resend's own: a Resend create with
 * `capabilities.receiving` is two /v1 operations (create, then update), and a Resend update
 * that changes nothing /v1 holds is a read, where /v1's update refuses an empty change.
 */
export function resendDomainRoutes(deps: ApiDeps): RouteGroup {
  const routes = new RouteGroup(deps, '/domains', RESEND_TAG);
  const { db, hosts, sealer } = domainDeps(deps);
  const ops = domainOperations(deps);
  const common = { errorShape: 'resend' } as const;
  /** Resend's path names the domain `id` where /v1's names it `domainId`. */
  const byId = {
    ids: { id: 'dom' },
    request: (req: OperationRequest<never>) => ({ ...req, params: { domainId: req.params.id } }),
  } as const;

  routes.define(
    {
      ...common,
      auth: 'either',
      method: 'post',
      path: '/',
      operationId: 'resendCreateDomain',
      testKey: true,
      summary: 'Resend: add a domain; answers the DNS records to publish',
      body: createBody,
      ok: { status: 200, schema: ResendDomain, description: 'Added (status pending)' },
      errors: ['INVALID_DOMAIN', 'DOMAIN_ALREADY_EXISTS', 'NOT_IMPLEMENTED'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      const body = await readBody(ctx, createBody);
      refuseTracking(body);
      const actor = requestActor(ctx);
      let view = await createDomain({ db, userId, sealer, hosts, actor, input: { domain: body.name } });
      if (body.capabilities?.receiving === 'enabled') {
        view = await updateDomain({
          db,
          userId,
          hosts,
          actor,
          domainId: view.id,
          input: { receiveEnabled: true },
        });
      }
      ctx.body = withRecords(view);
    },
  );

  serveTranslation(routes, ops.list, {
    ...common,
    method: 'get',
    path: '/',
    operationId: 'resendListDomains',
    summary: 'Resend: list domains',
    query: resendPageQuery('dom'),
    ok: { status: 200, schema: ResendDomainList, description: 'Domains' },
    response: (list, { query }) => resendPage(list.data.map(resendDomain), query),
  });

  serveTranslation(routes, ops.get, {
    ...common,
    ...byId,
    method: 'get',
    path: '/:id',
    operationId: 'resendGetDomain',
    summary: 'Resend: one domain with its records',
    ok: { status: 200, schema: ResendDomain, description: 'The domain' },
    response: withRecords,
  });

  routes.define(
    {
      ...common,
      auth: 'either',
      method: 'patch',
      path: '/:id',
      ids: { id: 'dom' },
      operationId: 'resendUpdateDomain',
      summary: 'Resend: update a domain (receiving capability)',
      body: updateBody,
      ok: { status: 200, schema: ResendObjectId, description: 'Updated' },
      errors: ['DOMAIN_NOT_FOUND', 'NOT_IMPLEMENTED'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      const body = await readBody(ctx, updateBody);
      refuseTracking(body);
      const domainId = ctx.params.id ?? '';
      const receiving = body.capabilities?.receiving;
      const view =
        receiving === undefined
          ? await getDomain({ db, userId, hosts, domainId })
          : await updateDomain({
              db,
              userId,
              hosts,
              actor: requestActor(ctx),
              domainId,
              input: { receiveEnabled: receiving === 'enabled' },
            });
      ctx.body = { object: 'domain', id: view.id };
    },
  );

  serveTranslation(routes, ops.remove, {
    ...common,
    ...byId,
    method: 'delete',
    path: '/:id',
    operationId: 'resendRemoveDomain',
    summary: 'Resend: remove a domain that has never sent mail',
    ok: { status: 200, schema: ResendDeleted, description: 'Removed' },
    response: (removed) => ({ object: 'domain', id: removed.id, deleted: true }),
  });

  serveTranslation(routes, ops.verify, {
    ...common,
    ...byId,
    method: 'post',
    path: '/:id/verify',
    operationId: 'resendVerifyDomain',
    summary: 'Resend: check the published records now (synchronously, unlike Resend)',
    ok: { status: 200, schema: ResendObjectId, description: 'Checked; GET the domain for its status' },
    response: (_result, { params }) => ({ object: 'domain', id: params.id ?? '' }),
  });

  return routes;
}

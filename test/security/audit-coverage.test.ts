// Spec, Audit entry: "Every state change is recorded with actor, IP, user agent, action,
// resource, resource id and creation time." This walks every POST/PUT/PATCH/DELETE of the
// running api's own /openapi.json: each has a recipe (how to call it with valid input, and the
// audit action it must add) or an exemption with its reason, so a new route cannot forget its
// audit entry. Each call must add an entry naming its actor, the caller's IP and user agent.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../src/db/connect';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import { runCtl } from '../helpers/ctl';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { inboundMessageRow } from '../helpers/email-fixtures';
import { openApplianceDb } from '../helpers/open-database';
import { addVerifiedDomain } from '../helpers/verified-domain';

const UA = 'audit-coverage-test/1.0';
const DOMAIN = 'audit.example.com';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * Operations whose calls add no audit entry, each with the reason. Nothing else may be listed.
 */
const EXEMPT: Readonly<Record<string, string>> = {
  'POST /v1/emails':
    'a send is recorded as the message itself (account, sending key, time) and its timeline, as the spec’s email lifecycle has it; its audit actions have no send',
  'POST /v1/emails/batch': 'as POST /v1/emails, per message',
  'POST /emails': 'as POST /v1/emails (the Resend surface’s send)',
  'POST /emails/batch': 'as POST /v1/emails/batch',
  'POST /internal/bounces':
    'the MTA’s own intake, not an actor: a report’s effects are recorded where they land (the message’s timeline events; a suppression.created entry with actor system)',
};

type ActorType = 'user' | 'api_key' | 'operator' | 'anonymous';

interface Call {
  readonly path: string;
  readonly token?: string;
  readonly headers?: Record<string, string>;
  /** JSON, or raw bytes with their own content type in `headers`. */
  readonly body?: unknown;
  /** The id the entry must name; a function reads it from the answer. */
  readonly resourceId?: string | ((answer: Record<string, unknown>) => unknown);
}

interface Recipe {
  readonly action: string;
  readonly actor: ActorType;
  prepare(): Call | Promise<Call>;
}

interface AuditEntry {
  readonly id: string;
  readonly actorType: string;
  readonly actorId: string | null;
  readonly ip: string | null;
  readonly userAgent: string | null;
  readonly resourceId: string | null;
}

interface Person {
  readonly token: string;
  readonly userId: string;
  readonly email: string;
  readonly password: string;
}

describe('security: every state-changing route is audited', () => {
  let dns: FakeDns;
  let app: Appliance;
  let db: Db;
  let operator: Person;
  let customer: Person & { readonly apiKey: string; readonly domainId: string };
  let ops: string[];
  let serial = 0;

  /** A set-up call (its own user agent): throws unless it succeeded. */
  async function ok<T = Record<string, unknown>>(
    method: string,
    path: string,
    token?: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<T> {
    const res = await app.api.request<T>(method, path, { token, body, headers });
    if (res.status >= 300) throw new Error(`set-up ${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  }
  const next = (): number => ++serial;
  const person = (): Promise<Person> => app.api.register(`audited-${next()}@example.com`);
  const newDomain = async (): Promise<string> =>
    (await ok<{ id: string }>('POST', '/v1/domains', customer.token, { domain: `d${next()}.${DOMAIN}` })).id;
  const newWebhook = async (): Promise<string> =>
    (
      await ok<{ id: string }>('POST', '/v1/webhooks', customer.token, {
        url: `https://hooks.example.com/${next()}`,
        events: ['email.delivered'],
      })
    ).id;
  const newKey = async (): Promise<string> =>
    (await ok<{ id: string }>('POST', '/v1/api-keys', customer.token, { name: `k${next()}` })).id;
  const newSuppression = async (): Promise<string> =>
    (
      await ok<{ id: string }>('POST', '/v1/suppressions', customer.token, {
        email: `s${next()}@dest.example`,
      })
    ).id;
  /**
   * An attempt in the endpoint's log, with its event, as the worker records them (this walk runs
   * no worker): what a redelivery needs.
   */
  const loggedAttempt = async (webhookId: string): Promise<string> => {
    const n = next();
    const at = new Date().toISOString();
    const payload = {
      event: 'email.delivered',
      emailId: `email_a${n}`,
      timestamp: at,
      recipient: 'r@dest.example',
    };
    await db
      .insertInto('outbox')
      .values({
        id: `obx_audit${n}`,
        user_id: customer.userId,
        event: 'email.delivered',
        email_id: payload.emailId,
        recipient: payload.recipient,
        payload: JSON.stringify(payload),
        created_at: at,
        dispatched_at: at,
      })
      .execute();
    const id = `01audit${String(n).padStart(19, '0')}`;
    await db
      .insertInto('webhook_attempts')
      .values({
        id,
        webhook_id: webhookId,
        user_id: customer.userId,
        delivery_id: `whd_audit${n}`,
        outbox_id: `obx_audit${n}`,
        event: 'email.delivered',
        attempt: 1,
        succeeded: 0,
        http_status: 500,
        error: 'HTTP 500',
        duration_ms: 12,
        response_excerpt: '',
        created_at: at,
      })
      .execute();
    return id;
  };
  const later = (hours: number): string => new Date(Date.now() + hours * 3_600_000).toISOString();
  const scheduledEmail = async (): Promise<string> =>
    (
      await ok<{ id: string }>('POST', '/v1/emails', customer.apiKey, {
        from: `news@${DOMAIN}`,
        to: `r${next()}@dest.example`,
        subject: 'Later',
        text: 'Later',
        scheduledAt: later(2),
      })
    ).id;
  const inbound = async (): Promise<string> => {
    const row = inboundMessageRow({ user_id: customer.userId, received_at: new Date().toISOString() });
    await db.insertInto('inbound_messages').values(row).execute();
    return row.id;
  };
  /** The one-click token Mailroom writes into a live message's List-Unsubscribe. */
  const unsubscribeToken = async (): Promise<string> => {
    await ok('PATCH', `/v1/domains/${customer.domainId}`, customer.token, { unsubscribeLink: true });
    const sent = await ok<{ id: string }>('POST', '/v1/emails', customer.apiKey, {
      from: `news@${DOMAIN}`,
      to: `reader${next()}@dest.example`,
      subject: 'News',
      text: 'News',
    });
    const raw = await app.api.get(`/v1/emails/${sent.id}/raw`, { token: customer.apiKey });
    const token = /^List-Unsubscribe:\s*<[^>]*\/public\/unsubscribe\/([^>/]+)>/im.exec(raw.text)?.[1];
    assert.ok(token, `no one-click link in ${raw.text.slice(0, 2000)}`);
    return token;
  };
  const internal = (): Record<string, string> => ({ 'x-internal-token': app.internalToken });
  /** A session's call on a resource `make` creates first: the entry must name it. */
  const onFresh = (
    action: string,
    make: () => Promise<string>,
    path: (id: string) => string,
    body?: unknown,
  ): Recipe =>
    asUser(action, async () => {
      const id = await make();
      return { path: path(id), token: customer.token, body, resourceId: id };
    });
  const asUser = (action: string, prepare: () => Call | Promise<Call>): Recipe => ({
    action,
    actor: 'user',
    prepare,
  });

  const RECIPES: Readonly<Record<string, Recipe>> = {
    'POST /v1/auth/register': asUser('user.registered', () => ({
      path: '/v1/auth/register',
      body: { email: `new-${next()}@example.com`, password: 'a long password', name: 'New' },
      resourceId: (a) => (a.user as { id: string }).id,
    })),
    'POST /v1/auth/login': asUser('user.login', async () => {
      const p = await person();
      return { path: '/v1/auth/login', body: { email: p.email, password: p.password }, resourceId: p.userId };
    }),
    'POST /v1/auth/change-password': asUser('user.password_changed', async () => {
      const p = await person();
      const body = { currentPassword: p.password, newPassword: 'another long password' };
      return { path: '/v1/auth/change-password', token: p.token, body, resourceId: p.userId };
    }),
    'POST /v1/auth/logout': asUser('user.logout', async () => {
      const p = await person();
      return { path: '/v1/auth/logout', token: p.token, resourceId: p.userId };
    }),
    'POST /v1/api-keys': asUser('api_key.created', () => ({
      path: '/v1/api-keys',
      token: customer.token,
      body: { name: 'audited' },
      resourceId: (a) => a.id,
    })),
    'DELETE /v1/api-keys/{keyId}': onFresh('api_key.revoked', newKey, (id) => `/v1/api-keys/${id}`),
    'POST /v1/domains': {
      action: 'domain.created',
      actor: 'api_key',
      prepare: () => ({
        path: '/v1/domains',
        token: customer.apiKey,
        body: { domain: `n${next()}.${DOMAIN}` },
        resourceId: (a) => a.id,
      }),
    },
    'PATCH /v1/domains/{domainId}': onFresh('domain.updated', newDomain, (id) => `/v1/domains/${id}`, {
      unsubscribeLink: true,
    }),
    'DELETE /v1/domains/{domainId}': onFresh('domain.deleted', newDomain, (id) => `/v1/domains/${id}`),
    'POST /v1/domains/{domainId}/verify': onFresh(
      'domain.verification_attempted',
      newDomain,
      (id) => `/v1/domains/${id}/verify`,
    ),
    // The dashboard's test email (issue 29 item 6): the entry names the email it sent.
    'POST /v1/domains/{domainId}/test-email': asUser('email.test_sent', async () => {
      const id = await newDomain();
      return { path: `/v1/domains/${id}/test-email`, token: customer.token, resourceId: (a) => a.id };
    }),
    'PATCH /v1/emails/{id}': {
      action: 'email.rescheduled',
      actor: 'api_key',
      prepare: async () => {
        const id = await scheduledEmail();
        return {
          path: `/v1/emails/${id}`,
          token: customer.apiKey,
          body: { scheduledAt: later(3) },
          resourceId: id,
        };
      },
    },
    'POST /v1/emails/{id}/cancel': {
      action: 'email.cancelled',
      actor: 'api_key',
      prepare: async () => {
        const id = await scheduledEmail();
        return { path: `/v1/emails/${id}/cancel`, token: customer.apiKey, resourceId: id };
      },
    },
    'PATCH /v1/inbound/{id}': onFresh('inbound.marked_read', inbound, (id) => `/v1/inbound/${id}`, {
      read: true,
    }),
    'DELETE /v1/inbound/{id}': onFresh('inbound.deleted', inbound, (id) => `/v1/inbound/${id}`),
    'POST /v1/suppressions': asUser('suppression.created', () => ({
      path: '/v1/suppressions',
      token: customer.token,
      body: { email: `x${next()}@dest.example` },
      resourceId: (a) => a.id,
    })),
    'DELETE /v1/suppressions/{idOrEmail}': onFresh(
      'suppression.deleted',
      newSuppression,
      (id) => `/v1/suppressions/${id}`,
    ),
    'POST /v1/webhooks': asUser('webhook.created', () => ({
      path: '/v1/webhooks',
      token: customer.token,
      body: { url: 'https://hooks.example.com/new', events: ['email.bounced'] },
      resourceId: (a) => a.id,
    })),
    'PATCH /v1/webhooks/{id}': onFresh('webhook.updated', newWebhook, (id) => `/v1/webhooks/${id}`, {
      events: ['email.sent'],
    }),
    'DELETE /v1/webhooks/{id}': onFresh('webhook.deleted', newWebhook, (id) => `/v1/webhooks/${id}`),
    'POST /v1/webhooks/{id}/enable': asUser('webhook.updated', async () => {
      const id = await newWebhook();
      await ok('PATCH', `/v1/webhooks/${id}`, customer.token, { enabled: false });
      return { path: `/v1/webhooks/${id}/enable`, token: customer.token, resourceId: id };
    }),
    'POST /v1/webhooks/{id}/test': onFresh(
      'webhook.test_sent',
      newWebhook,
      (id) => `/v1/webhooks/${id}/test`,
    ),
    'POST /v1/webhooks/{id}/attempts/{attemptId}/redeliver': asUser('webhook.redelivered', async () => {
      const id = await newWebhook();
      const attemptId = await loggedAttempt(id);
      return {
        path: `/v1/webhooks/${id}/attempts/${attemptId}/redeliver`,
        token: customer.token,
        resourceId: id,
      };
    }),
    'POST /v1/webhooks/{id}/rotate-secret': onFresh(
      'webhook.secret_rotated',
      newWebhook,
      (id) => `/v1/webhooks/${id}/rotate-secret`,
    ),
    'PATCH /v1/settings/limits': asUser('settings.limits_updated', async () => {
      const p = await person();
      return {
        path: '/v1/settings/limits',
        token: p.token,
        body: { emailsPerHour: 10 },
        resourceId: p.userId,
      };
    }),
    'PUT /v1/branding/logo': asUser('branding.logo_uploaded', () => ({
      path: '/v1/branding/logo',
      token: customer.token,
      headers: { 'content-type': 'image/png' },
      body: PNG,
    })),
    'DELETE /v1/branding/logo': asUser('branding.logo_deleted', async () => {
      const p = await person();
      const logo = { path: '/v1/branding/logo', token: p.token, headers: { 'content-type': 'image/png' } };
      const res = await send('PUT', { ...logo, body: PNG });
      assert.equal(res.status, 200, res.text);
      return { path: '/v1/branding/logo', token: p.token };
    }),
    'PUT /v1/branding/footer': asUser('branding.footer_updated', () => ({
      path: '/v1/branding/footer',
      token: customer.token,
      body: { text: 'Sent by Audit Inc.' },
    })),
    'POST /public/unsubscribe/{token}': {
      action: 'suppression.created',
      actor: 'anonymous',
      prepare: async () => ({
        path: `/public/unsubscribe/${await unsubscribeToken()}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: Buffer.from('List-Unsubscribe=One-Click'),
      }),
    },
    ...operatorRecipes('/internal/accounts', 'PATCH', internal),
    ...operatorRecipes('/v1/operator/accounts', 'PUT', () => ({ authorization: `Bearer ${operator.token}` })),
    ...invitationRecipes('/internal/invitations', internal),
    ...invitationRecipes('/v1/operator/invitations', () => ({ authorization: `Bearer ${operator.token}` })),
    // The Resend surface: the same use cases, so the same entries.
    'PATCH /emails/{id}': onFresh('email.rescheduled', scheduledEmail, (id) => `/emails/${id}`, {
      scheduled_at: later(4),
    }),
    'POST /emails/{id}/cancel': onFresh('email.cancelled', scheduledEmail, (id) => `/emails/${id}/cancel`),
    'POST /domains': asUser('domain.created', () => ({
      path: '/domains',
      token: customer.token,
      body: { name: `r${next()}.${DOMAIN}` },
      resourceId: (a) => a.id,
    })),
    'PATCH /domains/{id}': onFresh('domain.updated', newDomain, (id) => `/domains/${id}`, {
      capabilities: { receiving: 'disabled' },
    }),
    'DELETE /domains/{id}': onFresh('domain.deleted', newDomain, (id) => `/domains/${id}`),
    'POST /domains/{id}/verify': onFresh(
      'domain.verification_attempted',
      newDomain,
      (id) => `/domains/${id}/verify`,
    ),
    'POST /api-keys': asUser('api_key.created', () => ({
      path: '/api-keys',
      token: customer.token,
      body: { name: 'resend' },
      resourceId: (a) => a.id,
    })),
    'DELETE /api-keys/{id}': onFresh('api_key.revoked', newKey, (id) => `/api-keys/${id}`),
    'POST /webhooks': asUser('webhook.created', () => ({
      path: '/webhooks',
      token: customer.token,
      body: { endpoint: 'https://hooks.example.com/resend', events: ['email.sent'] },
      resourceId: (a) => a.id,
    })),
    'PATCH /webhooks/{id}': onFresh('webhook.updated', newWebhook, (id) => `/webhooks/${id}`, {
      status: 'disabled',
    }),
    'DELETE /webhooks/{id}': onFresh('webhook.deleted', newWebhook, (id) => `/webhooks/${id}`),
    'POST /webhooks/{id}/signing-secret/rotate': onFresh(
      'webhook.secret_rotated',
      newWebhook,
      (id) => `/webhooks/${id}/signing-secret/rotate`,
    ),
    'POST /suppressions': asUser('suppression.created', () => ({
      path: '/suppressions',
      token: customer.token,
      body: { email: `y${next()}@dest.example` },
    })),
    'DELETE /suppressions/{idOrEmail}': onFresh(
      'suppression.deleted',
      newSuppression,
      (id) => `/suppressions/${id}`,
    ),
  };

  /** Suspend, reinstate and limits of a fresh account, on the internal-token or the operator surface. */
  function operatorRecipes(
    prefix: string,
    limitsMethod: string,
    auth: () => Record<string, string>,
  ): Record<string, Recipe> {
    const on = (action: string, verb: string, body?: unknown, suspended = false): Recipe => ({
      action,
      actor: 'operator',
      prepare: async () => {
        const p = await person();
        if (suspended)
          await ok('POST', `/internal/accounts/${p.userId}/suspend`, undefined, { reason: 'x' }, internal());
        return { path: `${prefix}/${p.userId}/${verb}`, headers: auth(), body, resourceId: p.userId };
      },
    });
    return {
      [`POST ${prefix}/{id}/suspend`]: on('user.suspended', 'suspend', { reason: 'audit coverage' }),
      [`POST ${prefix}/{id}/reinstate`]: on('user.reinstated', 'reinstate', undefined, true),
      [`${limitsMethod} ${prefix}/{id}/limits`]: on('settings.limits_updated', 'limits', {
        emailsPerHour: 5,
      }),
    };
  }

  /** Invite an address and revoke a pending invitation, on the internal-token or the operator surface. */
  function invitationRecipes(prefix: string, auth: () => Record<string, string>): Record<string, Recipe> {
    return {
      [`POST ${prefix}`]: {
        action: 'invitation.created',
        actor: 'operator',
        prepare: () => ({
          path: prefix,
          headers: auth(),
          body: { email: `invited-${next()}@example.com` },
          resourceId: (a) => a.id,
        }),
      },
      [`DELETE ${prefix}/{id}`]: {
        action: 'invitation.revoked',
        actor: 'operator',
        prepare: async () => {
          const made = await ok<{ id: string }>(
            'POST',
            prefix,
            undefined,
            { email: `revoked-${next()}@example.com` },
            auth(),
          );
          return { path: `${prefix}/${made.id}`, headers: auth(), resourceId: made.id };
        },
      },
    };
  }

  /** fetch, for raw bodies too (the JSON client sends strings only). */
  async function send(
    method: string,
    call: Call,
    userAgent?: string,
  ): Promise<{ status: number; text: string; body: Record<string, unknown> }> {
    const headers: Record<string, string> = { ...(userAgent ? { 'user-agent': userAgent } : {}) };
    if (call.token !== undefined) headers.authorization = `Bearer ${call.token}`;
    const raw = Buffer.isBuffer(call.body);
    if (call.body !== undefined && !raw) headers['content-type'] = 'application/json';
    const res = await fetch(`${app.baseUrl}${call.path}`, {
      method,
      headers: { ...headers, ...call.headers },
      body: call.body === undefined ? undefined : raw ? new Blob([call.body]) : JSON.stringify(call.body),
    });
    const text = await res.text();
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // An HTML page (the unsubscribe answer) or an empty body.
    }
    return { status: res.status, text, body };
  }

  async function audit(action: string): Promise<AuditEntry[]> {
    const res = await app.api.get<{ data: AuditEntry[] }>(
      `/v1/operator/audit?action=${encodeURIComponent(action)}&limit=200`,
      { token: operator.token },
    );
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  }

  /** Calls the operation as the recipe says; what is wrong with its audit entry, or nothing. */
  async function check(op: string, recipe: Recipe): Promise<string | undefined> {
    const method = op.split(' ')[0] ?? '';
    const call = await recipe.prepare();
    const seen = new Set((await audit(recipe.action)).map((e) => e.id));
    const res = await send(method, call, UA);
    if (res.status >= 300) return `${op}: answered ${res.status} ${res.text.slice(0, 300)}`;
    const added = (await audit(recipe.action)).filter((e) => !seen.has(e.id));
    if (added.length !== 1) return `${op}: ${added.length} new ${recipe.action} entries, want 1`;
    const entry = added[0] as AuditEntry;
    const want = typeof call.resourceId === 'function' ? call.resourceId(res.body) : call.resourceId;
    const wrong = [
      entry.actorType !== recipe.actor && `actor ${entry.actorType}, want ${recipe.actor}`,
      recipe.actor !== 'anonymous' && !entry.actorId && 'no actor id',
      !entry.ip && 'no IP',
      entry.userAgent !== UA && `user agent ${entry.userAgent}`,
      want !== undefined &&
        entry.resourceId !== want &&
        `resource ${entry.resourceId}, want ${JSON.stringify(want)}`,
    ].filter(Boolean);
    return wrong.length > 0 ? `${op} (${recipe.action}): ${wrong.join('; ')}` : undefined;
  }

  before(async () => {
    dns = await startDnsServer();
    dns.add('hooks.example.com', 'A', '93.184.215.14');
    // SIGNUP_MODE open: the walk registers many accounts (a setting an appliance without it ignores).
    app = await startAppliance({
      processes: ['api'],
      env: { DNS_SERVERS: dns.address, SIGNUP_MODE: 'open' },
    });
    db = openApplianceDb(app);
    operator = await person();
    const granted = await runCtl(app.env, ['accounts', 'grant-operator', operator.email]);
    assert.equal(granted.code, 0, granted.stderr);
    const c = await person();
    const key = await ok<{ token: string }>('POST', '/v1/api-keys', c.token, { name: 'server' });
    const domain = await addVerifiedDomain(app, dns, c.token, DOMAIN);
    customer = { ...c, apiKey: key.token, domainId: domain.id };
    const doc = (await (await fetch(`${app.baseUrl}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    ops = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((m) => ['post', 'put', 'patch', 'delete'].includes(m))
        .map((m) => `${m.toUpperCase()} ${path}`),
    );
  });
  after(async () => {
    await db.destroy();
    await app.stop();
    await dns.close();
  });

  it('has a recipe or a listed exemption for every state-changing operation, and none for another', () => {
    assert.ok(ops.length > 40, `only ${ops.length} state-changing operations: is the walk broken?`);
    assert.deepEqual(
      ops.filter((op) => RECIPES[op] === undefined && EXEMPT[op] === undefined),
      [],
      'operations without a recipe: add one (or an exemption with its reason)',
    );
    const known = new Set(ops);
    assert.deepEqual(
      Object.keys({ ...RECIPES, ...EXEMPT }).filter((op) => !known.has(op)),
      [],
    );
    assert.deepEqual(
      Object.keys(RECIPES).filter((op) => EXEMPT[op] !== undefined),
      [],
    );
  });

  it('adds one entry with actor, IP and user agent for each call', async () => {
    const wrong: string[] = [];
    for (const op of ops) {
      const recipe = RECIPES[op];
      if (recipe === undefined) continue;
      const problem = await check(op, recipe);
      if (problem !== undefined) wrong.push(problem);
    }
    assert.deepEqual(wrong, []);
  });

  it('records opening an unread inbound message, and marking it unread', async () => {
    const id = await inbound();
    const seen = new Set(
      [...(await audit('inbound.marked_read')), ...(await audit('inbound.marked_unread'))].map((e) => e.id),
    );
    const headers = { 'user-agent': UA };
    assert.equal((await app.api.get(`/v1/inbound/${id}`, { token: customer.apiKey, headers })).status, 200);
    assert.equal((await app.api.get(`/v1/inbound/${id}`, { token: customer.apiKey, headers })).status, 200);
    const unread = await app.api.patch(`/v1/inbound/${id}`, {
      token: customer.apiKey,
      headers,
      body: { read: false },
    });
    assert.equal(unread.status, 200, unread.text);
    const added = (action: string): Promise<AuditEntry[]> =>
      audit(action).then((all) => all.filter((e) => !seen.has(e.id) && e.resourceId === id));
    // Only the first open changed the state.
    const read = await added('inbound.marked_read');
    assert.equal(read.length, 1);
    assert.equal(read[0]?.actorType, 'api_key');
    assert.equal(read[0]?.userAgent, UA);
    assert.equal((await added('inbound.marked_unread')).length, 1);
  });

  it('records a failed login as user.login_failed: anonymous, with IP and user agent', async () => {
    const seen = new Set((await audit('user.login_failed')).map((e) => e.id));
    const res = await app.api.post('/v1/auth/login', {
      headers: { 'user-agent': UA },
      body: { email: customer.email, password: 'not the password' },
    });
    assert.equal(res.status, 401);
    const added = (await audit('user.login_failed')).filter((e) => !seen.has(e.id));
    assert.equal(added.length, 1);
    assert.equal(added[0]?.actorType, 'anonymous');
    assert.ok(added[0]?.ip);
    assert.equal(added[0]?.userAgent, UA);
    assert.equal(added[0]?.resourceId, customer.userId);
  });
});

// The OpenAPI document against a running appliance: /openapi.json is served as
// documented, and the getting-started walkthrough (docs/getting-started.md) runs
// step by step with every response checked, strictly, against the schema the
// document gives for that route and status.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import type { JsonResponse } from '../helpers/http-client';
import type { Schema } from '../helpers/json-schema';
import { checkSchema } from '../helpers/json-schema';
import type { SmtpSink } from '../helpers/smtp-sink';
import { startSmtpSink } from '../helpers/smtp-sink';
import type { PublishedRecord } from '../helpers/dns-fixtures';
import { publish } from '../helpers/dns-fixtures';
import { runCtl } from '../helpers/ctl';

const DOMAIN = 'example.com';

type Doc = { paths: Record<string, Record<string, { responses: Record<string, Record<string, unknown>> }>> };

async function until<T>(what: string, probe: () => Promise<T | undefined>, lines: string[]): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`${what} not reached\n${lines.slice(-20).join('\n')}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

describe('OpenAPI document on a running appliance', () => {
  let dns: FakeDns;
  let sink: SmtpSink;
  let app: Appliance;
  let doc: Doc;
  /** From the walkthrough, for the dashboard routes' case. */
  let walked: { apiKey: string; emailId: string; webhookId: string } | undefined;

  /** Asserts the response has a documented status and a body the document's schema for it accepts. */
  function conforms(method: string, template: string, res: JsonResponse<unknown>): void {
    const op = doc.paths[template]?.[method];
    assert.ok(op, `${method} ${template} is not documented`);
    const response = op.responses[String(res.status)];
    assert.ok(response, `${method} ${template}: status ${res.status} is not documented (${res.text})`);
    const content = response.content as Record<string, { schema: Schema }> | undefined;
    const schema = content?.['application/json']?.schema;
    if (!schema) return;
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.deepEqual(checkSchema(doc, schema, res.body), [], `${method} ${template} ${res.status}`);
  }

  before(async () => {
    dns = await startDnsServer();
    sink = await startSmtpSink();
    app = await startAppliance({ env: { DNS_SERVERS: dns.address, SMTP_RELAY: sink.address } });
  });
  after(async () => {
    await app.stop();
    await sink.close();
    await dns.close();
  });

  it('serves /openapi.json without a token, cacheable, with a 304 on its ETag', async () => {
    const res = await fetch(`${app.baseUrl}/openapi.json`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.match(res.headers.get('cache-control') ?? '', /public/);
    doc = (await res.json()) as Doc;
    assert.match((doc as unknown as { openapi: string }).openapi, /^3\.1\./);
    const etag = res.headers.get('etag');
    assert.ok(etag);
    // Not fetch: it adds `Cache-Control: no-cache` to a conditional request, as the Fetch standard says.
    const status = await new Promise<number | undefined>((resolve, reject) => {
      http
        .get(`${app.baseUrl}/openapi.json`, { headers: { 'if-none-match': etag } }, (r) => {
          r.resume();
          resolve(r.statusCode);
        })
        .on('error', reject);
    });
    assert.equal(status, 304);
  });

  it('runs the getting-started walkthrough; every response matches the document', async () => {
    const { api } = app;
    conforms('get', '/health', await api.get('/health'));
    conforms('get', '/ready', await api.get('/ready'));

    const registered = await api.post<{ token: string; user: { id: string } }>('/v1/auth/register', {
      body: { email: 'you@example.com', password: 'a long password', name: 'You' },
    });
    conforms('post', '/v1/auth/register', registered);
    const session = registered.body.token;
    conforms(
      'post',
      '/v1/auth/login',
      await api.post('/v1/auth/login', { body: { email: 'you@example.com', password: 'wrong password' } }),
    );
    conforms('get', '/v1/auth/me', await api.get('/v1/auth/me', { token: session }));

    const key = await api.post<{ token: string }>('/v1/api-keys', {
      token: session,
      body: { name: 'server', mode: 'live' },
    });
    conforms('post', '/v1/api-keys', key);
    const apiKey = key.body.token;
    assert.match(apiKey, /^re_live_/);
    conforms('get', '/v1/api-keys', await api.get('/v1/api-keys', { token: apiKey }));
    conforms('post', '/v1/api-keys', await api.post('/v1/api-keys', { token: apiKey, body: { name: 'x' } }));

    const domain = await api.post<{ id: string; status: string; records: PublishedRecord[] }>('/v1/domains', {
      token: apiKey,
      body: { domain: DOMAIN },
    });
    conforms('post', '/v1/domains', domain);
    assert.equal(domain.body.status, 'PENDING');
    const domainPath = `/v1/domains/${domain.body.id}`;
    const pending = await api.post<{ verified: boolean }>(`${domainPath}/verify`, { token: apiKey });
    conforms('post', '/v1/domains/{domainId}/verify', pending);
    assert.equal(pending.body.verified, false);

    publish(dns, domain.body.records);
    const verified = await api.post<{ verified: boolean; status: string }>(`${domainPath}/verify`, {
      token: apiKey,
    });
    conforms('post', '/v1/domains/{domainId}/verify', verified);
    assert.equal(verified.body.status, 'VERIFIED');
    conforms('get', '/v1/domains', await api.get('/v1/domains', { token: apiKey }));
    conforms('get', '/v1/domains/{domainId}', await api.get(domainPath, { token: apiKey }));

    const sent = await api.post<{ id: string }>('/v1/emails', {
      token: apiKey,
      body: {
        from: `You <hello@${DOMAIN}>`,
        to: 'someone@example.org',
        subject: 'Hello from Mailroom',
        text: 'It works.',
        html: '<p>It works.</p>',
      },
    });
    conforms('post', '/v1/emails', sent);
    assert.equal(sent.status, 202);
    const delivered = await until(
      'delivered',
      async () => {
        const res = await api.get<{ status: string }>(`/v1/emails/${sent.body.id}`, { token: apiKey });
        return res.body.status === 'delivered' ? res : undefined;
      },
      app.lines,
    );
    conforms('get', '/v1/emails/{id}', delivered);
    assert.equal(sink.messages.length, 1);
    conforms('get', '/v1/emails', await api.get('/v1/emails?limit=10', { token: apiKey }));
    conforms('get', '/v1/emails/{id}', await api.get('/v1/emails/email_nope', { token: apiKey }));
    conforms('get', '/v1/emails', await api.get('/v1/emails?limit=0', { token: apiKey }));
    conforms('get', '/v1/emails', await api.get('/v1/emails'));

    dns.add('hooks.example.com', 'A', '93.184.215.14');
    const hook = await api.post<{ id: string }>('/v1/webhooks', {
      token: apiKey,
      body: { url: 'https://hooks.example.com/mailroom', events: ['email.delivered', 'email.bounced'] },
    });
    conforms('post', '/v1/webhooks', hook);
    conforms('get', '/v1/webhooks', await api.get('/v1/webhooks', { token: apiKey }));
    conforms('get', '/v1/webhooks/{id}', await api.get(`/v1/webhooks/${hook.body.id}`, { token: apiKey }));
    walked = { apiKey, emailId: sent.body.id, webhookId: hook.body.id };
  });

  it('matches the document on the dashboard routes (issue 19)', async () => {
    const { api } = app;
    assert.ok(walked, 'the walkthrough ran first');
    const { apiKey, emailId, webhookId } = walked;
    const filtered = await api.get(
      `/v1/emails?tag=plan:pro&q=Hello&from=2020-01-01T00:00:00Z&to=2999-01-01T00:00:00Z`,
      { token: apiKey },
    );
    conforms('get', '/v1/emails', filtered);
    conforms('get', '/v1/emails', await api.get('/v1/emails?q=Hello', { token: apiKey }));
    for (const query of ['?part=html', '?part=text&remoteImages=1']) {
      const preview = await api.get(`/v1/emails/${emailId}/preview${query}`, { token: apiKey });
      assert.equal(preview.status, 200);
      conforms('get', '/v1/emails/{id}/preview', preview);
    }
    const raw = await api.get(`/v1/emails/${emailId}/raw`, { token: apiKey });
    assert.equal(raw.status, 200);
    conforms('get', '/v1/emails/{id}/raw', raw);
    conforms(
      'post',
      '/v1/webhooks/{id}/test',
      await api.post(`/v1/webhooks/${webhookId}/test`, { token: apiKey }),
    );
    conforms(
      'post',
      '/v1/webhooks/{id}/enable',
      await api.post(`/v1/webhooks/${webhookId}/enable`, { token: apiKey }),
    );
    conforms('get', '/v1/suppressions', await api.get('/v1/suppressions?q=example', { token: apiKey }));

    const operator = await api.register();
    const customer = await api.register();
    conforms(
      'get',
      '/v1/operator/accounts',
      await api.get('/v1/operator/accounts', { token: operator.token }),
    );
    const granted = await runCtl(app.env, ['accounts', 'grant-operator', operator.email]);
    assert.equal(granted.code, 0, granted.stderr);
    conforms('get', '/v1/auth/me', await api.get('/v1/auth/me', { token: operator.token }));
    const as = { token: operator.token };
    conforms('get', '/v1/operator/accounts', await api.get('/v1/operator/accounts?limit=2', as));
    const id = customer.userId;
    conforms(
      'post',
      '/v1/operator/accounts/{id}/suspend',
      await api.post(`/v1/operator/accounts/${id}/suspend`, { ...as, body: { reason: 'openapi test' } }),
    );
    conforms(
      'post',
      '/v1/operator/accounts/{id}/reinstate',
      await api.post(`/v1/operator/accounts/${id}/reinstate`, { ...as, body: {} }),
    );
    conforms(
      'put',
      '/v1/operator/accounts/{id}/limits',
      await api.request('PUT', `/v1/operator/accounts/${id}/limits`, {
        ...as,
        body: { emailsPerHour: null },
      }),
    );
    conforms('get', '/v1/operator/audit', await api.get(`/v1/operator/audit?target=${id}&limit=5`, as));
  });

  it('matches the document on the other account routes', async () => {
    const { api } = app;
    const { token, apiKey, userId } = await api.registerWithKey();
    const supp = await api.post<{ id: string }>('/v1/suppressions', {
      token: apiKey,
      body: { email: 'Gone@Example.org', type: 'manual', reason: 'asked' },
    });
    conforms('post', '/v1/suppressions', supp);
    conforms('get', '/v1/suppressions', await api.get('/v1/suppressions', { token: apiKey }));
    conforms(
      'get',
      '/v1/suppressions/{idOrEmail}',
      await api.get('/v1/suppressions/gone%40example.org', { token: apiKey }),
    );
    conforms(
      'delete',
      '/v1/suppressions/{idOrEmail}',
      await api.delete(`/v1/suppressions/${supp.body.id}`, { token: apiKey }),
    );
    conforms('get', '/v1/settings', await api.get('/v1/settings', { token: apiKey }));
    conforms(
      'patch',
      '/v1/settings/limits',
      await api.patch('/v1/settings/limits', { token: apiKey, body: { emailsPerHour: 10 } }),
    );
    conforms('get', '/v1/stats/overview', await api.get('/v1/stats/overview?days=7', { token: apiKey }));
    conforms('get', '/v1/stats/health-signals', await api.get('/v1/stats/health-signals', { token: apiKey }));
    conforms('get', '/v1/inbound', await api.get('/v1/inbound', { token: apiKey }));
    conforms('get', '/v1/branding', await api.get('/v1/branding', { token: apiKey }));
    conforms(
      'put',
      '/v1/branding/footer',
      await api.request('PUT', '/v1/branding/footer', {
        token: apiKey,
        body: { text: 'Sent with Mailroom' },
      }),
    );
    const internal = { 'x-internal-token': app.internalToken };
    const suspended = await api.post(`/internal/accounts/${userId}/suspend`, {
      headers: internal,
      body: { reason: 'test' },
    });
    conforms('post', '/internal/accounts/{id}/suspend', suspended);
    conforms('get', '/v1/auth/me', await api.get('/v1/auth/me', { token }));
    conforms(
      'post',
      '/internal/accounts/{id}/reinstate',
      await api.post(`/internal/accounts/${userId}/reinstate`, { headers: internal }),
    );
    const metrics = await fetch(`${app.baseUrl}/metrics`, { headers: internal });
    assert.equal(metrics.status, 200);
    assert.match(metrics.headers.get('content-type') ?? '', /^text\/plain/);
  });
});

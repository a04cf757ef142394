import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../src/db/connect';
import { openApplianceDb } from '../helpers/open-database';
import type { DestinationSnapshot } from '../../src/mta/destination-metrics';
import { SNAPSHOT_FILE } from '../../src/mta/destination-metrics';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { addVerifiedDomain } from '../helpers/verified-domain';

/** Prometheus text → `name{labels}` → value. */
function parse(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

const NODE = 'metrics-node-1';

describe('GET /metrics', () => {
  let dns: FakeDns;
  let app: Appliance;
  let db: Db;

  before(async () => {
    dns = await startDnsServer();
    app = await startAppliance({
      processes: ['api'],
      env: { DNS_SERVERS: dns.address, NEW_ACCOUNT_EMAILS_PER_HOUR: '100', NODE_NAME: NODE },
    });
    db = openApplianceDb(app);
  });
  after(async () => {
    await db.destroy();
    await app.stop();
    await dns.close();
  });

  const scrape = async (): Promise<Map<string, number>> => {
    const res = await fetch(`${app.baseUrl}/metrics`, { headers: { 'x-internal-token': app.internalToken } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    return parse(await res.text());
  };

  it('needs X-Internal-Token', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { 'x-internal-token': 'wrong' },
      { authorization: `Bearer ${app.internalToken}` },
    ];
    for (const headers of attempts) {
      const res = await app.api.get<{ error: { code: string } }>('/metrics', { headers });
      assert.equal(res.status, 401);
      assert.equal(res.body.error.code, 'UNAUTHORIZED');
    }
  });

  it('exposes the spec metrics, queue ages and uptime', async () => {
    const { apiKey, token, userId } = await app.api.registerWithKey();
    await addVerifiedDomain(app, dns, token, 'metrics.example.com');
    for (let i = 0; i < 3; i++) {
      const res = await app.api.post('/v1/emails', {
        token: apiKey,
        body: { from: 'm@metrics.example.com', to: 'r@example.org', subject: 'm', text: 'm' },
      });
      assert.equal(res.status, 202, res.text);
    }
    // Test mail is not counted in mail_emails_last_hour; its email-send job (the worker captures it) is queue work like any other.
    const testKey = await app.api.post<{ token: string }>('/v1/api-keys', {
      token,
      body: { name: 'trial', mode: 'test' },
    });
    assert.equal(testKey.status, 201, testKey.text);
    const trial = await app.api.post('/v1/emails', {
      token: testKey.body.token,
      body: { from: 'm@metrics.example.com', to: 'r@example.org', subject: 'm', text: 'm' },
    });
    assert.equal(trial.status, 202, trial.text);
    // One failed webhook delivery attempt in the last hour, one success, one failure two hours ago.
    const now = Date.now();
    await db
      .insertInto('webhooks')
      .values({
        id: 'whk_metrics',
        user_id: userId,
        url: 'https://hooks.example.org/x',
        events: '[]',
        secret_sealed: 'x',
        enabled: 1,
        disabled_reason: null,
        disabled_at: null,
        consecutive_failures: 0,
        last_success_at: null,
        last_failure_at: null,
        created_at: new Date(now).toISOString(),
        updated_at: new Date(now).toISOString(),
      })
      .execute();
    for (const [id, succeeded, ago] of [
      ['whd_1', 0, 60_000],
      ['whd_2', 1, 60_000],
      ['whd_3', 0, 2 * 3_600_000],
    ] as const) {
      await db
        .insertInto('webhook_attempts')
        .values({
          id,
          webhook_id: 'whk_metrics',
          user_id: userId,
          delivery_id: id,
          outbox_id: 'obx_x',
          event: 'email.sent',
          attempt: 1,
          succeeded,
          http_status: succeeded ? 200 : 500,
          error: null,
          duration_ms: 5,
          created_at: new Date(now - ago).toISOString(),
        })
        .execute();
    }
    await sleep(1100);

    const m = await scrape();
    for (const queue of ['email-send', 'email-send:failed', 'bounce-processing', 'webhook-delivery']) {
      assert.ok(m.has(`mail_queue_depth{queue="${queue}"}`), queue);
      assert.ok(m.has(`mail_queue_oldest_age_seconds{queue="${queue}"}`), queue);
    }
    // No worker runs here: the three live sends and the test send wait on email-send.
    assert.equal(m.get('mail_queue_depth{queue="email-send"}'), 4);
    assert.ok((m.get('mail_queue_oldest_age_seconds{queue="email-send"}') ?? 0) >= 1);
    assert.equal(m.get('mail_queue_oldest_age_seconds{queue="bounce-processing"}'), 0);
    assert.equal(m.get('mail_emails_last_hour{status="queued"}'), 3, 'live mail only');
    assert.equal(m.get('mail_emails_last_hour{status="delivered"}'), 0);
    assert.equal(m.get('mail_webhook_failures_last_hour'), 1);
    assert.ok((m.get(`mail_api_uptime_seconds{node="${NODE}"}`) ?? 0) > 0);
    assert.ok(m.has(`process_resident_memory_bytes{node="${NODE}"}`));
  });

  it('names the node (NODE_NAME) and its roles, and how long ago each node heartbeated', async () => {
    const m = await scrape();
    // Started as `main.js api`: this node runs the api only.
    assert.equal(m.get(`mailroom_node_info{node="${NODE}",roles="api"}`), 1);
    const age = m.get(`mail_node_heartbeat_age_seconds{node="${NODE}"}`);
    assert.ok(age !== undefined && age >= 0 && age < 60, String(age));
    await db
      .insertInto('nodes')
      .values({
        name: 'gone-node',
        roles: 'worker,mta',
        started_at: '2026-01-01T00:00:00.000Z',
        last_seen_at: new Date(Date.now() - 3_600_000).toISOString(),
      })
      .execute();
    const gone = (await scrape()).get('mail_node_heartbeat_age_seconds{node="gone-node"}') ?? 0;
    assert.ok(gone >= 3_599, String(gone));
  });

  it('times requests by method, route template and status class, never the raw path', async () => {
    const { apiKey } = await app.api.registerWithKey();
    await app.api.get('/v1/emails/email_00000000000000000000000000', { token: apiKey });
    await app.api.get('/v1/stats/overview');
    await app.api.get('/no/such/path/12345');
    const m = await scrape();
    const count = (labels: string) =>
      m.get(`mail_http_request_duration_seconds_count{node="${NODE}",${labels}}`) ?? 0;
    assert.ok(count('method="GET",route="/v1/emails/:id",status_class="4xx"') >= 1);
    assert.ok(count('method="GET",route="/v1/stats/overview",status_class="4xx"') >= 1);
    assert.ok(count('method="POST",route="/v1/emails",status_class="2xx"') >= 3);
    assert.ok(count('method="GET",route="unmatched",status_class="4xx"') >= 1);
    const keys = [...m.keys()].join('\n');
    assert.doesNotMatch(keys, /email_0000|12345/);
  });

  it('shows the mta’s per-destination pacing (snapshot in DATA_DIR)', async () => {
    const now = Date.now();
    // What the mta writes (src/mta/destination-metrics.ts): its counts, ten seconds ago.
    const snapshot: DestinationSnapshot = {
      at: now - 10_000,
      destinations: [
        {
          destination: 'google.com',
          inFlight: 3,
          backedOff: 1,
          backoffRemainingSeconds: 120,
          deferredLastHour: 2,
        },
        {
          destination: 'example.org',
          inFlight: 1,
          backedOff: 0,
          backoffRemainingSeconds: 0,
          deferredLastHour: 0,
        },
      ],
    };
    fs.writeFileSync(path.join(app.dataDir, SNAPSHOT_FILE), JSON.stringify(snapshot));
    const m = await scrape();
    assert.equal(m.get('mail_destination_in_flight{destination="google.com"}'), 3);
    assert.equal(m.get('mail_destination_backed_off{destination="google.com"}'), 1);
    const remaining = m.get('mail_destination_backoff_remaining_seconds{destination="google.com"}') ?? 0;
    assert.ok(remaining > 60 && remaining <= 110, String(remaining));
    assert.equal(m.get('mail_destination_deferred_last_hour{destination="google.com"}'), 2);
    assert.equal(m.get('mail_destination_backed_off{destination="example.org"}'), 0);
    assert.equal(m.get('mail_destination_deferred_last_hour{destination="example.org"}'), 0);
    fs.rmSync(path.join(app.dataDir, SNAPSHOT_FILE));
    assert.equal((await scrape()).get('mail_destination_in_flight{destination="google.com"}'), undefined);
  });

  it('is closed (401) when no INTERNAL_API_TOKEN is configured', async () => {
    const closed = await startAppliance({ processes: ['api'], env: { INTERNAL_API_TOKEN: '' } });
    try {
      const res = await closed.api.get('/metrics', { headers: { 'x-internal-token': closed.internalToken } });
      assert.equal(res.status, 401);
    } finally {
      await closed.stop();
    }
  });
});

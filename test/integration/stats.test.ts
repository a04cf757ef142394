import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../src/db/connect';
import { openApplianceDb } from '../helpers/open-database';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { addVerifiedDomain } from '../helpers/verified-domain';
import type { FixtureAccount } from '../helpers/email-fixtures';
import { insertEmail } from '../helpers/email-fixtures';

interface Overview {
  window: { days: number; from: string; to: string };
  totals: Record<string, number>;
  rates: { delivery: number; bounce: number; complaint: number; terminalMessages: number };
  daily: { day: string; status: string; count: number }[];
  usage: { hour: { used: number; limit: number }; day: { used: number; limit: number } };
}

interface Signal {
  name: string;
  value: number;
  unit: string;
  threshold: number;
  window: string;
  fires: boolean;
  basis: Record<string, unknown>;
}

const DAY_MS = 86_400_000;

describe('GET /v1/stats/*', () => {
  let dns: FakeDns;
  let app: Appliance;
  let db: Db;

  before(async () => {
    dns = await startDnsServer();
    app = await startAppliance({
      processes: ['api'],
      env: {
        DNS_SERVERS: dns.address,
        RATE_LIMIT_EMAILS_PER_HOUR: '1000',
        RATE_LIMIT_EMAILS_PER_DAY: '5000',
        NEW_ACCOUNT_EMAILS_PER_HOUR: '1000',
      },
    });
    // Fixtures for statuses the api alone never reaches, written as the worker would leave them.
    db = openApplianceDb(app);
  });
  after(async () => {
    await db.destroy();
    await app.stop();
    await dns.close();
  });

  async function account(domain: string): Promise<FixtureAccount & { apiKey: string; token: string }> {
    const { apiKey, token, userId } = await app.api.registerWithKey();
    const { id } = await addVerifiedDomain(app, dns, token, domain);
    return { apiKey, token, userId, domainId: id };
  }

  it('overview: totals per status, rates over terminal messages, daily counts and usage', async () => {
    const a = await account('stats.example.com');
    for (const to of [['x@example.org', 'y@example.org'], ['z@example.org']]) {
      const res = await app.api.post('/v1/emails', {
        token: a.apiKey,
        body: { from: 'hi@stats.example.com', to, subject: 'Hi', text: 'Hi' },
      });
      assert.equal(res.status, 202, res.text);
    }
    const now = Date.now();
    const today = new Date(now).toISOString();
    const threeDaysAgo = new Date(now - 3 * DAY_MS).toISOString();
    const fortyDaysAgo = new Date(now - 40 * DAY_MS).toISOString();
    for (const [createdAt, status, n] of [
      [today, 'delivered', 3],
      [today, 'bounced', 1],
      [today, 'complained', 1],
      [today, 'sent', 1],
      [threeDaysAgo, 'delivered', 2],
      [threeDaysAgo, 'failed', 1],
      [fortyDaysAgo, 'delivered', 5],
    ] as const) {
      for (let i = 0; i < n; i++) await insertEmail(db, a, { createdAt, status });
    }

    const res = await app.api.get<Overview>('/v1/stats/overview', { token: a.apiKey });
    assert.equal(res.status, 200, res.text);
    const o = res.body;
    assert.equal(o.window.days, 30);
    assert.equal(o.window.to, today.slice(0, 10));
    assert.deepEqual(o.totals, {
      queued: 2,
      processing: 0,
      sent: 1,
      delivered: 5,
      deferred: 0,
      bounced: 1,
      complained: 1,
      failed: 1,
      cancelled: 0,
      total: 11,
    });
    // Terminal: 5 delivered + 1 bounced + 1 complained + 1 failed; queued and sent are not.
    assert.deepEqual(o.rates, { delivery: 62.5, bounce: 12.5, complaint: 12.5, terminalMessages: 8 });
    const day = (iso: string) => iso.slice(0, 10);
    assert.deepEqual(
      o.daily.filter((d) => d.day === day(threeDaysAgo)),
      [
        { day: day(threeDaysAgo), status: 'delivered', count: 2 },
        { day: day(threeDaysAgo), status: 'failed', count: 1 },
      ],
    );
    assert.deepEqual(
      o.daily.filter((d) => d.day === day(today)).map((d) => [d.status, d.count]),
      [
        ['bounced', 1],
        ['complained', 1],
        ['delivered', 3],
        ['queued', 2],
        ['sent', 1],
      ],
    );
    // Usage counts recipients over the rolling hour and day: 3 sent through the API + 6 fixtures today.
    assert.deepEqual(o.usage, { hour: { used: 9, limit: 1000 }, day: { used: 9, limit: 5000 } });

    const wide = await app.api.get<Overview>('/v1/stats/overview?days=60', { token: a.token });
    assert.equal(wide.status, 200);
    assert.equal(wide.body.totals.delivered, 10);
    assert.equal(wide.body.totals.total, 16);
  });

  it('validates days and the query, and needs a token', async () => {
    const { apiKey } = await app.api.registerWithKey();
    for (const q of ['days=0', 'days=366', 'days=1.5', 'days=abc', 'day=3']) {
      const res = await app.api.get<{ error: { code: string } }>(`/v1/stats/overview?${q}`, {
        token: apiKey,
      });
      assert.equal(res.status, 422, q);
      assert.equal(res.body.error.code, 'VALIDATION_ERROR', q);
    }
    const one = await app.api.get<Overview>('/v1/stats/overview?days=365', { token: apiKey });
    assert.equal(one.status, 200);
    assert.deepEqual(one.body.daily, []);
    assert.equal(one.body.totals.total, 0);
    assert.deepEqual(one.body.rates, { delivery: 0, bounce: 0, complaint: 0, terminalMessages: 0 });
    for (const p of ['/v1/stats/overview', '/v1/stats/health-signals']) {
      const res = await app.api.get<{ error: { code: string } }>(p);
      assert.equal(res.status, 401);
      assert.equal(res.body.error.code, 'UNAUTHORIZED');
    }
  });

  it('health signals: value, threshold, window and whether each fires', async () => {
    const a = await account('signals.example.com');
    const now = Date.now();
    const twoHoursAgo = new Date(now - 2 * 3_600_000).toISOString();
    // 50 recipients of one message, 6 bounced, plus 5 single deliveries: 6 of 55 = 10.91 %.
    await insertEmail(db, a, {
      createdAt: twoHoursAgo,
      status: 'bounced',
      recipients: Array.from({ length: 50 }, (_, i) => ({
        address: `r${i}@example.org`,
        status: i < 6 ? ('bounced' as const) : ('delivered' as const),
      })),
    });
    for (let i = 0; i < 5; i++) await insertEmail(db, a, { createdAt: twoHoursAgo, status: 'delivered' });
    // Stopped before any attempt (a suspension): not the recipients' verdict, so not counted.
    await insertEmail(db, a, {
      createdAt: twoHoursAgo,
      status: 'failed',
      attempts: 0,
      recipients: Array.from({ length: 10 }, (_, i) => ({
        address: `s${i}@example.org`,
        status: 'failed' as const,
      })),
    });
    // The same address 21 times within the hour, through the real pipeline.
    for (let i = 0; i < 21; i++) {
      const res = await app.api.post('/v1/emails', {
        token: a.apiKey,
        body: { from: 'hi@signals.example.com', to: 'same@example.org', subject: `n${i}`, text: 'x' },
      });
      assert.equal(res.status, 202, res.text);
    }

    const res = await app.api.get<{ evaluatedAt: string; firing: string[]; signals: Signal[] }>(
      '/v1/stats/health-signals',
      { token: a.token },
    );
    assert.equal(res.status, 200, res.text);
    assert.ok(Date.parse(res.body.evaluatedAt));
    assert.deepEqual(res.body.firing, ['bounce_rate', 'recipient_repetition']);
    const by = new Map(res.body.signals.map((s) => [s.name, s]));
    assert.deepEqual(
      [...by.keys()],
      ['bounce_rate', 'complaint_rate', 'failure_rate', 'volume_spike', 'recipient_repetition'],
    );
    assert.deepEqual(by.get('bounce_rate'), {
      name: 'bounce_rate',
      value: 10.91,
      unit: 'percent',
      threshold: 10,
      window: '24h',
      fires: true,
      basis: { bounced: 6, attempted: 55, minimum: 50 },
    });
    assert.deepEqual(
      [by.get('failure_rate')?.value, by.get('failure_rate')?.fires, by.get('complaint_rate')?.fires],
      [0, false, false],
    );
    assert.equal(by.get('volume_spike')?.fires, false);
    assert.equal(by.get('volume_spike')?.basis.lastHour, 21);
    assert.deepEqual(by.get('recipient_repetition'), {
      name: 'recipient_repetition',
      value: 21,
      unit: 'messages',
      threshold: 20,
      window: '1h',
      fires: true,
      basis: { address: 'same@example.org', count: 21 },
    });
  });
});

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { migrate, openDb } from '../../src/db/connect';
import { migrations } from '../../src/db/migrations';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { addVerifiedDomain } from '../helpers/verified-domain';

/**
 * Issue 17 finding 7: the self-service ceiling was max(platform default, current
 * override), so a new account lifted its 20/h to the 100/h default, and
 * `{"emailsPerHour": null}` cleared an operator's throttle.
 */
interface LimitView {
  effective: number;
  override: number | null;
  own: number | null;
  default: number;
}
interface Settings {
  limits: { emailsPerHour: LimitView; emailsPerDay: LimitView };
}

describe('self-service limits can only lower the allowance (issue 17 finding 7)', () => {
  let dns: FakeDns;
  let app: Appliance;
  before(async () => {
    dns = await startDnsServer();
    app = await startAppliance({
      processes: ['api'],
      env: {
        DNS_SERVERS: dns.address,
        RATE_LIMIT_EMAILS_PER_HOUR: '100',
        RATE_LIMIT_EMAILS_PER_DAY: '1000',
        NEW_ACCOUNT_EMAILS_PER_HOUR: '20',
      },
    });
  });
  after(async () => {
    await app.stop();
    await dns.close();
  });

  const settings = async (token: string) => (await app.api.get<Settings>('/v1/settings', { token })).body;
  const setOwn = (token: string, body: Record<string, number | null>) =>
    app.api.patch<Settings & { error?: { code: string } }>('/v1/settings/limits', { token, body });
  const operator = (userId: string, body: Record<string, number | null>) =>
    app.api.patch(`/internal/accounts/${userId}/limits`, {
      headers: { 'x-internal-token': app.internalToken },
      body,
    });

  it('keeps a new account at NEW_ACCOUNT_EMAILS_PER_HOUR when it asks for the default', async () => {
    const { apiKey, token } = await app.api.registerWithKey();
    await addVerifiedDomain(app, dns, token, 'fresh.example.com');
    assert.equal((await settings(token)).limits.emailsPerHour.effective, 20);
    const res = await setOwn(token, { emailsPerHour: 100 });
    assert.equal(res.status, 200);
    assert.equal(res.body.limits.emailsPerHour.effective, 20);
    // The send path applies the same allowance.
    const sent = await app.api.post('/v1/emails', {
      token: apiKey,
      body: { from: 'a@fresh.example.com', to: 'r@example.org', subject: 's', text: 't' },
    });
    assert.equal(sent.status, 202);
    assert.equal(sent.headers.get('x-ratelimit-limit'), '20');
  });

  it("cannot clear or lift an operator's throttle", async () => {
    const { token, userId } = await app.api.register();
    assert.equal((await operator(userId, { emailsPerHour: 5, emailsPerDay: 50 })).status, 200);
    const cleared = await setOwn(token, { emailsPerHour: null, emailsPerDay: null });
    assert.equal(cleared.status, 200);
    assert.equal(cleared.body.limits.emailsPerHour.effective, 5);
    assert.equal(cleared.body.limits.emailsPerDay.effective, 50);
    const raised = await setOwn(token, { emailsPerHour: 50 });
    assert.equal(raised.status, 403);
    assert.equal(raised.body.error?.code, 'FORBIDDEN');
    const view = await settings(token);
    assert.equal(view.limits.emailsPerHour.effective, 5);
    assert.equal(view.limits.emailsPerHour.override, 5);
  });

  it("lowers below an operator's grant and returns to it with null", async () => {
    const { token, userId } = await app.api.register();
    await operator(userId, { emailsPerHour: 500 });
    const lowered = await setOwn(token, { emailsPerHour: 10 });
    assert.deepEqual(lowered.body.limits.emailsPerHour, {
      effective: 10,
      override: 500,
      own: 10,
      default: 100,
    });
    // The operator's later change keeps the account's own lower limit.
    await operator(userId, { emailsPerHour: 300 });
    assert.equal((await settings(token)).limits.emailsPerHour.effective, 10);
    const back = await setOwn(token, { emailsPerHour: null });
    assert.equal(back.body.limits.emailsPerHour.effective, 300);
  });
});

describe('migration 010 splits existing limits by who set them', () => {
  it('restores a throttle the customer cleared and never raises an allowance', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-010-')), 'mail.db');
    const db = openDb({ file });
    const migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
    const to009 = await migrator.migrateTo('009-quota-windows');
    assert.equal(to009.error, undefined);
    const t = (m: number) => `2026-11-0${m}T00:00:00.000Z`;
    const insertUser = async (id: string, hour: number | null, day: number | null) => {
      await sql`insert into users (id, email, name, password_hash, status, emails_per_hour,
        emails_per_day, created_at, updated_at)
        values (${id}, ${`${id}@example.com`}, 'x', 'x', 'ACTIVE', ${hour}, ${day}, ${t(1)}, ${t(1)})`.execute(
        db,
      );
    };
    let n = 0;
    const audit = async (userId: string, actor: string, details: Record<string, unknown>) => {
      n += 1;
      await sql`insert into audit_log (id, user_id, actor_type, action, resource, resource_id, details,
        created_at) values (${`aud_${n}`}, ${userId}, ${actor}, 'settings.limits_updated', 'user',
        ${userId}, ${JSON.stringify(details)}, ${t(n)})`.execute(db);
    };
    // Throttled to 5/h, then cleared by the customer (stored: null): the throttle comes back.
    await insertUser('usr_cleared', null, null);
    await audit('usr_cleared', 'operator', { emailsPerHour: 5 });
    await audit('usr_cleared', 'user', { emailsPerHour: null });
    // Granted 500/day, lowered by the customer to 40: both kept apart.
    await insertUser('usr_lowered', null, 40);
    await audit('usr_lowered', 'operator', { emailsPerDay: 500 });
    await audit('usr_lowered', 'api_key', { emailsPerDay: 40 });
    // No audit trail: the stored value stays, as the operator's.
    await insertUser('usr_untraced', 7, null);

    await migrate(db);
    const rows = await sql<Record<string, unknown>>`select id, emails_per_hour, own_emails_per_hour,
      emails_per_day, own_emails_per_day from users order by id`.execute(db);
    assert.deepEqual(rows.rows, [
      {
        id: 'usr_cleared',
        emails_per_hour: 5,
        own_emails_per_hour: null,
        emails_per_day: null,
        own_emails_per_day: null,
      },
      {
        id: 'usr_lowered',
        emails_per_hour: null,
        own_emails_per_hour: null,
        emails_per_day: 500,
        own_emails_per_day: 40,
      },
      {
        id: 'usr_untraced',
        emails_per_hour: 7,
        own_emails_per_hour: null,
        emails_per_day: null,
        own_emails_per_day: null,
      },
    ]);
    await db.destroy();
  });
});

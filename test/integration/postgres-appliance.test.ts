// Issue 23 item 1, "Done when": `DATABASE_URL=postgres://… npm start` runs the whole
// appliance. Pinned to PostgreSQL whatever the matrix says: api, worker and mta each on
// the server, a send delivered to an SMTP sink, its state and the statistics (kept by
// the plpgsql triggers) read back through the API.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Db } from '../../src/db/connect';
import { dialectOf } from '../../src/db/connect';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { openApplianceDb } from '../helpers/open-database';
import { requirePostgres } from '../helpers/postgres';
import type { SmtpSink } from '../helpers/smtp-sink';
import { startSmtpSink } from '../helpers/smtp-sink';
import { addVerifiedDomain } from '../helpers/verified-domain';
import { waitUntil } from '../helpers/wait-until';

const DOMAIN = 'pg.example.com';

describe('the appliance on PostgreSQL', requirePostgres(), () => {
  let dns: FakeDns;
  let sink: SmtpSink;
  let app: Appliance;
  let db: Db;
  let apiKey: string;

  before(async () => {
    dns = await startDnsServer();
    sink = await startSmtpSink();
    app = await startAppliance({
      backend: 'postgres',
      env: { DNS_SERVERS: dns.address, SMTP_RELAY: sink.address, MTA_RETRY_INTERVALS: '5,5' },
    });
    const account = await app.api.registerWithKey();
    apiKey = account.apiKey;
    await addVerifiedDomain(app, dns, account.token, DOMAIN);
    db = openApplianceDb(app);
  });
  after(async () => {
    await db?.destroy();
    await app?.stop();
    await sink?.close();
    await dns?.close();
  });

  it('runs api, worker and mta on the server and delivers a send to the sink', async () => {
    assert.match(app.databaseUrl, /^postgres:\/\//);
    assert.equal(dialectOf(db), 'postgres');
    const res = await app.api.post<{ id: string }>('/v1/emails', {
      token: apiKey,
      body: {
        from: `Shop <orders@${DOMAIN}>`,
        to: 'buyer@example.org',
        subject: 'On PostgreSQL',
        text: 'Hi',
      },
    });
    assert.equal(res.status, 202, res.text);
    const [message] = await sink.waitForMessages(1, 30_000);
    assert.match(message?.raw.toString() ?? '', /Subject: On PostgreSQL/);
    let view: { status: string; events: { type: string }[] } | undefined;
    await waitUntil(
      'the email delivered',
      async () => {
        const got = await app.api.get<{ status: string; events: { type: string }[] }>(
          `/v1/emails/${res.body.id}`,
          { token: apiKey },
        );
        view = got.body;
        return view.status === 'delivered';
      },
      30_000,
    );
    assert.ok(view?.events.some((e) => e.type === 'delivered'));
    // Every process held a connection of its own to this database.
    const apps = await sql<{ name: string }>`
      select distinct application_name as name from pg_stat_activity where datname = current_database()
    `.execute(db);
    const names = apps.rows.map((r) => r.name);
    for (const p of ['mailroom-api', 'mailroom-worker', 'mailroom-mta'])
      assert.ok(names.includes(p), names.join());
    // The daily counts (plpgsql triggers) saw the send and its delivery.
    const overview = await app.api.get<{ totals: Record<string, number> }>('/v1/stats/overview?days=1', {
      token: apiKey,
    });
    assert.equal(overview.status, 200, overview.text);
    assert.match(JSON.stringify(overview.body), /"delivered":1/);
  });
});

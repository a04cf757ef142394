// Issue 23 item 4: a node's name (NODE_NAME) on its log lines, in the `nodes` table its
// processes heartbeat, and on the timeline of GET /v1/emails/{id} (`events[].node`: the
// node whose worker handed the message off and whose MTA delivered it). Real path: API →
// worker → Haraka → an SMTP sink as SMTP_RELAY.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openDatabase } from '../../src/db/connect';
import { dropTestDatabase, requirePostgres, testPostgresUrl } from '../helpers/postgres';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import type { SmtpSink } from '../helpers/smtp-sink';
import { startSmtpSink } from '../helpers/smtp-sink';
import { addVerifiedDomain } from '../helpers/verified-domain';

interface EmailView {
  status: string;
  events: { type: string; node: string | null }[];
}

const DOMAIN = 'shop.example.com';
const NODE = 'node-e2e-1';

/** The appliance's database: its SQLite file, or a fresh PostgreSQL database given as DATABASE_URL. */
const BACKENDS: readonly { name: string; options: { skip?: string }; url(): Promise<string | undefined> }[] =
  [
    { name: 'SQLite', options: {}, url: () => Promise.resolve(undefined) },
    { name: 'PostgreSQL', options: requirePostgres(), url: testPostgresUrl },
  ];

for (const backend of BACKENDS)
  describe(
    `node name on logs, heartbeat and the email timeline (full appliance, ${backend.name})`,
    backend.options,
    () => {
      let sink: SmtpSink;
      let dns: FakeDns;
      let app: Appliance;
      let apiKey: string;
      let url: string | undefined;

      before(async () => {
        sink = await startSmtpSink();
        dns = await startDnsServer();
        url = await backend.url();
        app = await startAppliance({
          env: {
            DNS_SERVERS: dns.address,
            SMTP_RELAY: sink.address,
            NODE_NAME: NODE,
            ...(url === undefined ? {} : { DATABASE_URL: url }),
          },
        });
        const account = await app.api.registerWithKey();
        await addVerifiedDomain(app, dns, account.token, DOMAIN);
        apiKey = account.apiKey;
      });
      after(async () => {
        await app.stop();
        await sink.close();
        await dns.close();
        if (url !== undefined) await dropTestDatabase(url);
      });

      it('shows which node handed the message off and delivered it', async () => {
        const sent = await app.api.post<{ id: string }>('/v1/emails', {
          token: apiKey,
          body: { from: `orders@${DOMAIN}`, to: 'buyer@dest.test', subject: 'Your order', text: 'Thanks' },
        });
        assert.equal(sent.status, 202, sent.text);
        const deadline = Date.now() + 40_000;
        let view: EmailView;
        for (;;) {
          const res = await app.api.get<EmailView>(`/v1/emails/${sent.body.id}`, { token: apiKey });
          assert.equal(res.status, 200, res.text);
          view = res.body;
          if (view.status === 'delivered') break;
          if (Date.now() > deadline) assert.fail(`not delivered: ${JSON.stringify(view)}`);
          await new Promise((r) => setTimeout(r, 200));
        }
        assert.deepEqual(
          view.events.map((e) => [e.type, e.node]),
          [
            ['queued', null],
            ['processing', NODE],
            ['sent', NODE],
            ['delivered', NODE],
          ],
        );
      });

      it('every process logs the node, and the node heartbeats with its roles', async () => {
        const json = app.lines.flatMap((l) => {
          try {
            return [JSON.parse(l) as { process?: string; node?: string }];
          } catch {
            return [];
          }
        });
        for (const name of ['supervisor', 'api', 'worker', 'mta']) {
          const own = json.filter((l) => l.process === name);
          assert.ok(own.length > 0, name);
          assert.ok(
            own.every((l) => l.node === NODE),
            `${name}: ${JSON.stringify(own.find((l) => l.node !== NODE))}`,
          );
        }
        const db = openDatabase(url ?? path.join(app.dataDir, 'mail.db'));
        try {
          const rows = await db.selectFrom('nodes').selectAll().execute();
          assert.equal(rows.length, 1);
          assert.equal(rows[0]?.name, NODE);
          assert.equal(rows[0]?.roles, 'api,worker,mta');
          assert.ok(Date.now() - Date.parse(rows[0]?.last_seen_at ?? '') < 60_000);
        } finally {
          await db.destroy();
        }
      });
    },
  );

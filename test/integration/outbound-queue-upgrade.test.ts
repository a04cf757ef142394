// The upgrade to the worker's sender (issue 31 item 7, docs/upgrading.md): an appliance on the
// Haraka path leaves deferred mail in its outbound queue (DATA_DIR/mta-queue) and is killed; the
// same DATA_DIR and database started with OUTBOUND_SENDER=worker hand that mail to the job table
// at start-up (src/mta/outbound-queue-import.ts) and the worker's sender delivers it: every
// accepted recipient reaches the sink exactly once, each message ends `delivered`, the queue
// directory is empty, and a file that names no message is moved aside, not sent nor deleted.
import assert from 'node:assert/strict';
import dns from 'node:dns';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { DNSResolver } from 'mailauth';
import { authenticate } from 'mailauth';
import { verpAddress } from '../../src/mail/verp-address';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { openApplianceDb } from '../helpers/open-database';
import type { SinkMessage } from '../helpers/smtp-sink';
import { startSmtpSink } from '../helpers/smtp-sink';
import { addVerifiedDomain } from '../helpers/verified-domain';
import { waitUntil } from '../helpers/wait-until';

const DOMAIN = 'upgrade.example.com';
/** Short, so Haraka's next attempt is due by the time the new build starts; many, so none bounces. */
const RETRY_INTERVALS = '5,5,5,5,5,5,5,5,5,5';
/** A file in the queue that names no message (another tool's, or garbage): set aside. */
const FOREIGN = '1796414089279_1796414089279_0_4242_zzzzzz_1_elsewhere';

interface EmailView {
  status: string;
  recipients: { email: string; status: string }[];
}

function fakeDnsResolver(server: FakeDns): DNSResolver {
  const resolver = new dns.promises.Resolver({ timeout: 2_000, tries: 1 });
  resolver.setServers([server.address]);
  return (name, rrtype) => resolver.resolve(name, rrtype) as Promise<string[] | string[][]>;
}

describe('upgrade to OUTBOUND_SENDER=worker: mail left in the Haraka queue', () => {
  it('is delivered once by the worker after the restart, and the queue is emptied', async () => {
    const dnsServer = await startDnsServer();
    const sink = await startSmtpSink();
    const base = {
      DNS_SERVERS: dnsServer.address,
      SMTP_RELAY: sink.address,
      MTA_RETRY_INTERVALS: RETRY_INTERVALS,
    };
    // The receiving side puts these off on the old build (450 at RCPT), accepts the rest.
    const held = ['wait-a@one.test', 'wait-b@two.test', 'wait-c@one.test'];
    for (const address of held)
      sink.setRecipientBehaviour(address, { code: 450, message: '4.2.1 Mailbox busy, try later' });
    let app: Appliance = await startAppliance({ env: { ...base, OUTBOUND_SENDER: 'haraka' } });
    try {
      const account = await app.api.registerWithKey();
      await addVerifiedDomain(app, dnsServer, account.token, DOMAIN);
      const send = async (body: Record<string, unknown>): Promise<string> => {
        const res = await app.api.post<{ id: string }>('/v1/emails', {
          token: account.apiKey,
          body: { from: `Shop <orders@${DOMAIN}>`, subject: 'Your order', text: 'Thanks', ...body },
        });
        assert.equal(res.status, 202, res.text);
        return res.body.id;
      };
      const view = async (id: string): Promise<EmailView> =>
        (await app.api.get<EmailView>(`/v1/emails/${id}`, { token: account.apiKey })).body;
      // A: one delivered at once, one put off per domain (two queue files); B: put off; C: delivered.
      const emails = {
        a: await send({ to: ['ok-a@one.test', 'wait-a@one.test'], cc: 'wait-b@two.test' }),
        b: await send({ to: 'wait-c@one.test' }),
        c: await send({ to: 'ok-c@two.test' }),
      };
      const ids = Object.values(emails);
      /** Every recipient's status, by address in order. */
      const statusOf = async (): Promise<string> => {
        const out: [string, string][] = [];
        for (const id of ids) for (const r of (await view(id)).recipients) out.push([r.email, r.status]);
        return JSON.stringify(out.sort());
      };
      const sorted = (o: Record<string, string>): string => JSON.stringify(Object.entries(o).sort());
      const heldByHaraka = {
        'ok-a@one.test': 'delivered',
        'wait-a@one.test': 'deferred',
        'wait-b@two.test': 'deferred',
        'wait-c@one.test': 'deferred',
        'ok-c@two.test': 'delivered',
      };
      await waitUntil(
        'the old build to deliver two recipients and defer three',
        async () => (await statusOf()) === sorted(heldByHaraka),
        60_000,
      );
      // Power cut on the old build, with its queue as Haraka left it.
      await app.kill();
      const queueDir = path.join(app.dataDir, 'mta-queue');
      const queued = fs.readdirSync(queueDir);
      // One per message and domain put off; a fourth when the kill came between Haraka's report
      // of ok-a and its removal of the file it split wait-a from (handled: one job per message).
      assert.ok(queued.length >= 3, `a file per message and domain put off: ${queued.join(', ')}`);
      fs.writeFileSync(path.join(queueDir, FOREIGN), Buffer.from('\0\0\0\x05{"a":'));
      const before: SinkMessage[] = [...sink.messages];
      sink.reset(); // the receiving side now accepts everything

      app = await startAppliance({
        env: { ...base, OUTBOUND_SENDER: 'worker' },
        dataDir: app.dataDir,
      });
      await waitUntil(
        'every message delivered by the worker',
        async () => (await Promise.all(ids.map(view))).every((v) => v.status === 'delivered'),
        60_000,
      );
      assert.equal(
        await statusOf(),
        sorted(Object.fromEntries(Object.keys(heldByHaraka).map((a) => [a, 'delivered']))),
      );

      // Exactly once each, over both builds: the worker sent only what the queue still held.
      const all = [...before, ...sink.messages];
      const copies = new Map<string, number>();
      for (const m of all) for (const r of m.rcptTo) copies.set(r, (copies.get(r) ?? 0) + 1);
      assert.deepEqual(
        Object.fromEntries([...copies].sort()),
        Object.fromEntries(
          Object.keys(heldByHaraka)
            .map((a) => [a, 1] as const)
            .sort(),
        ),
      );
      assert.deepEqual(
        sink.messages.flatMap((m) => m.rcptTo).sort(),
        [...held].sort(),
        'after the upgrade, only the recipients the queue held',
      );
      // Sent from the VERP return path, DKIM-signed by the worker.
      const taken = sink.messages.find((m) => m.rcptTo.includes('wait-c@one.test'));
      assert.ok(taken, 'wait-c@one.test reached the sink');
      assert.equal(taken.mailFrom, verpAddress(emails.b, DOMAIN));
      const auth = await authenticate(taken.raw, {
        ip: '127.0.0.1',
        helo: 'mx.mailroom.test',
        sender: taken.mailFrom,
        resolver: fakeDnsResolver(dnsServer),
      });
      assert.equal(auth.dkim.results[0]?.status.result, 'pass', JSON.stringify(auth.dkim.results[0]?.status));

      assert.deepEqual(fs.readdirSync(queueDir), [], 'the Haraka queue is empty');
      assert.deepEqual(fs.readdirSync(path.join(app.dataDir, 'mta-queue-unmatched')), [FOREIGN]);
      const imported = app.lines
        .map((l) => {
          try {
            return JSON.parse(l) as Record<string, unknown>;
          } catch {
            return {};
          }
        })
        .find((l) => l.event === 'outbound_queue_imported');
      assert.equal(imported?.files, queued.length + 1, JSON.stringify(imported));
      assert.equal(imported?.jobs, 2, 'one per message the queue held');
      assert.equal(imported?.recipients, 3);
      assert.equal(imported?.setAside, 1);

      const db = openApplianceDb(app);
      try {
        const jobs = await db
          .selectFrom('jobs')
          .select(['state', 'dedupe_key'])
          .where('queue', '=', 'email-send')
          .where('dedupe_key', 'like', '%:haraka-queue:%')
          .execute();
        assert.deepEqual(
          jobs.map((j) => j.state),
          ['succeeded', 'succeeded'],
        );
        const nodes = await db
          .selectFrom('emails')
          .select('mta_node')
          .where('id', 'in', [emails.a, emails.b])
          .execute();
        assert.deepEqual(
          nodes.map((n) => n.mta_node),
          [null, null],
          'no node holds the messages any more: no hand-back resends them',
        );
      } finally {
        await db.destroy();
      }
    } finally {
      await app.kill();
      await sink.close();
      await dnsServer.close();
    }
  });
});

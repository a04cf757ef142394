// `ctl migrate-to-postgres` on a populated appliance (issue 23 item 5, "Tests"): a real
// SQLite appliance made through its API (account, API key, session, DKIM-keyed domain,
// webhook with its secret, a delivered send, inbound mail with its raw file) plus 10k
// messages with timelines written straight into its database; then the copy into a real
// PostgreSQL server, SIGKILLed after its first batches and run again; then the appliance
// on PostgreSQL with the same SECRET_KEY serves the same data, signs with the old key.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import dns from 'node:dns';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { DNSResolver } from 'mailauth';
import { authenticate } from 'mailauth';
import { sql } from 'kysely';
import type { Db } from '../../src/db/connect';
import { parseConfig } from '../../src/config';
import { openDatabase, openDb } from '../../src/db/connect';
import { getOverview } from '../../src/modules/stats/stats.usecases';
import type { Appliance } from '../helpers/appliance';
import { REPO_ROOT, startAppliance } from '../helpers/appliance';
import { runCtl } from '../helpers/ctl';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { compose, fetchBytes, sendRaw, setReceiving, waitForInbound } from '../helpers/inbound-mail';
import { populateMail } from '../helpers/populate-mail';
import { requirePostgres, testPostgresUrl } from '../helpers/postgres';
import type { SmtpSink } from '../helpers/smtp-sink';
import { startSmtpSink } from '../helpers/smtp-sink';
import { addVerifiedDomain } from '../helpers/verified-domain';
import { waitUntil } from '../helpers/wait-until';
import type { Receiver } from '../helpers/webhook-receiver';
import { startReceiver, verifySignature } from '../helpers/webhook-receiver';

const DOMAIN = 'migrating.example.com';
const SECRET_KEY = 'migrate-to-postgres-test-secret-0123456789abcdef';
const EMAILS = 10_000;

function fakeDnsResolver(server: FakeDns): DNSResolver {
  const resolver = new dns.promises.Resolver({ timeout: 2_000, tries: 1 });
  resolver.setServers([server.address]);
  return (name, rrtype) => resolver.resolve(name, rrtype) as Promise<string[] | string[][]>;
}

interface Before {
  readonly apiKey: string;
  readonly token: string;
  readonly userId: string;
  readonly webhookSecret: string;
  readonly inboundId: string;
  readonly inboundRaw: Buffer;
  readonly stats: unknown;
  readonly emails: Map<string, unknown>;
}

/** The compiled CLI as a child process of its own (killable), with its stderr collected. */
function startCtl(args: readonly string[]): { child: ChildProcess; stderr: () => string } {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'dist', 'src', 'cli', 'ctl.js'), ...args], {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (d: string) => (err += d));
  child.stdout?.resume();
  return { child, stderr: () => err };
}

async function count(db: Db, table: string): Promise<number> {
  const row = (await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(db))
    .rows[0];
  return Number(row?.n);
}

describe(
  'ctl migrate-to-postgres: a populated SQLite appliance moves to PostgreSQL',
  requirePostgres(),
  () => {
    let fakeDns: FakeDns;
    let sink: SmtpSink;
    let receiver: Receiver;
    let dataDir: string;
    let pgUrl: string;
    let was: Before;
    let pgApp: Appliance | undefined;
    const baseEnv = (): Record<string, string> => ({
      DNS_SERVERS: fakeDns.address,
      SMTP_RELAY: sink.address,
      SECRET_KEY,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      ABUSE_AUTO_SUSPEND: 'false',
      RATE_LIMIT_EMAILS_PER_HOUR: '1000000',
      RATE_LIMIT_EMAILS_PER_DAY: '1000000',
      NEW_ACCOUNT_EMAILS_PER_HOUR: '1000000',
    });

    before(async () => {
      fakeDns = await startDnsServer();
      sink = await startSmtpSink();
      receiver = await startReceiver();
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-migrate-'));
      pgUrl = await testPostgresUrl();
      const app = await startAppliance({
        dataDir,
        env: { ...baseEnv(), DATABASE_URL: `sqlite:${path.join(dataDir, 'mail.db')}` },
      });
      try {
        const { apiKey, token, userId } = await app.api.registerWithKey();
        const domain = await addVerifiedDomain(app, fakeDns, token, DOMAIN);
        const hook = await app.api.post<{ secret: string }>('/v1/webhooks', {
          token: apiKey,
          body: { url: receiver.url, events: ['email.delivered'] },
        });
        assert.equal(hook.status, 201, hook.text);
        const sent = await app.api.post<{ id: string }>('/v1/emails', {
          token: apiKey,
          body: { from: `orders@${DOMAIN}`, to: ['before@dest.test'], subject: 'Before', text: 'Before' },
        });
        assert.equal(sent.status, 202, sent.text);
        await waitUntil('the first send delivered', async () => {
          const got = await app.api.get<{ status: string }>(`/v1/emails/${sent.body.id}`, { token: apiKey });
          return got.body.status === 'delivered';
        });

        await setReceiving(app, token, domain.id, { receiveEnabled: true });
        await new Promise((r) => setTimeout(r, 2_500)); // the MX's view of domains refreshes every 2 s
        const inboundRaw = await compose({
          from: 'sender@example.org',
          to: `support@inbox.${DOMAIN}`,
          subject: 'Inbound before the move',
          text: 'Stored as a file on SQLite.',
        });
        await sendRaw(app, inboundRaw, { from: 'sender@example.org', to: [`support@inbox.${DOMAIN}`] });
        const inbound = await waitForInbound(app, token, (m) => m.subject === 'Inbound before the move');
        assert.ok(
          fs.readdirSync(path.join(dataDir, 'inbound')).length > 0,
          'raw files under DATA_DIR/inbound',
        );

        const db = openDb({ file: path.join(dataDir, 'mail.db') });
        try {
          const populated = await populateMail(db, {
            userId,
            domainId: domain.id,
            domain: DOMAIN,
            emails: EMAILS,
            days: 20,
          });
          assert.equal(populated.emailIds.length, EMAILS);
          const emails = new Map<string, unknown>();
          for (const id of [sent.body.id, ...populated.emailIds.filter((_, i) => i % 997 === 0)]) {
            const got = await app.api.get(`/v1/emails/${id}`, { token: apiKey });
            assert.equal(got.status, 200, got.text);
            emails.set(id, got.body);
          }
          const stats = (await app.api.get('/v1/stats/overview?days=30', { token: apiKey })).body;
          was = {
            apiKey,
            token,
            userId,
            webhookSecret: hook.body.secret,
            inboundId: inbound.id,
            inboundRaw,
            stats,
            emails,
          };
        } finally {
          await db.destroy();
        }
      } finally {
        await app.stop();
      }
    });

    after(async () => {
      await pgApp?.stop();
      await receiver.close();
      await sink.close();
      await fakeDns.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('copies, survives a SIGKILL after its first batches, resumes and verifies equal', async () => {
      const args = ['migrate-to-postgres', '--from', dataDir, '--to', pgUrl, '--batch-size', '50'];
      const first = startCtl(args);
      const exited = new Promise<void>((resolve) => first.child.once('exit', () => resolve()));
      await waitUntil(
        'the copy of emails under way',
        () => /emails: \d+ of \d+ rows copied/.test(first.stderr()),
        120_000,
      );
      first.child.kill('SIGKILL');
      await exited;

      const target = openDatabase(pgUrl, { poolSize: 1 });
      try {
        const partial = await count(target, 'emails');
        assert.ok(
          partial > 0 && partial < EMAILS,
          `killed part-way through emails: ${partial} of ${EMAILS + 1}`,
        );
        assert.equal(await count(target, 'email_events'), 0, 'tables after emails not begun');
      } finally {
        await target.destroy();
      }

      const second = await runCtl({ PATH: process.env.PATH ?? '' }, args);
      assert.equal(second.code, 0, `${second.stdout}\n${second.stderr}`);
      const lines = second.stdout.trim().split('\n').slice(1);
      assert.ok(lines.length >= 25, second.stdout);
      for (const line of lines) assert.match(line, / ok$/, line);
      const emailsLine = lines.find((l) => l.startsWith('emails '));
      assert.match(emailsLine ?? '', new RegExp(`\\s${EMAILS + 1}\\s+${EMAILS + 1}\\s`));
      assert.match(lines.find((l) => l.startsWith('raw store')) ?? '', /\s1\s+1\s/);
      assert.match(lines.find((l) => l.startsWith('email_daily_counts')) ?? '', / ok$/);
      assert.doesNotMatch(second.stdout, /kysely_migration/);

      const verify = await runCtl({ PATH: process.env.PATH ?? '' }, [...args, '--verify-only']);
      assert.equal(verify.code, 0, verify.stdout + verify.stderr);
    });

    it('--verify-only finds a changed row (exit 2, the table named)', async () => {
      const target = openDatabase(pgUrl, { poolSize: 1 });
      const [id] = was.emails.keys();
      try {
        await sql`update emails set subject = 'tampered' where id = ${id}`.execute(target);
        const verify = await runCtl({ PATH: process.env.PATH ?? '' }, [
          'migrate-to-postgres',
          '--from',
          dataDir,
          '--to',
          pgUrl,
          '--verify-only',
        ]);
        assert.equal(verify.code, 2, verify.stdout + verify.stderr);
        assert.match(verify.stdout, /^emails .*MISMATCH/m);
        assert.match(verify.stdout, /^email_events .* ok$/m);
      } finally {
        await sql`update emails set subject = 'Before' where id = ${id}`.execute(target);
        await target.destroy();
      }
    });

    it('the appliance on PostgreSQL: same ids, stats, keys, session, DKIM signing, webhook secret, inbound raw', async () => {
      pgApp = await startAppliance({ env: { ...baseEnv(), DATABASE_URL: pgUrl } });
      const app = pgApp;
      for (const [id, body] of was.emails) {
        const got = await app.api.get(`/v1/emails/${id}`, { token: was.apiKey });
        assert.equal(got.status, 200, got.text);
        assert.deepEqual(got.body, body, id);
      }
      // The usage of the last 24 hours moves on with the clock (a populated message leaves
      // the window every few minutes): compared below at one instant; the rest as the API showed it.
      const withoutUsage = (body: unknown): unknown => ({ ...(body as object), usage: undefined });
      const stats = (await app.api.get('/v1/stats/overview?days=30', { token: was.apiKey })).body;
      assert.deepEqual(withoutUsage(stats), withoutUsage(was.stats));
      const config = parseConfig({ ...baseEnv(), DATA_DIR: dataDir });
      const now = new Date();
      const sqlite = openDb({ file: path.join(dataDir, 'mail.db') });
      const pg = openDatabase(pgUrl, { poolSize: 1 });
      try {
        const overview = (db: Db): Promise<unknown> =>
          getOverview({ db, config, userId: was.userId, days: 30, now });
        assert.deepEqual(await overview(pg), await overview(sqlite));
      } finally {
        await sqlite.destroy();
        await pg.destroy();
      }
      const me = await app.api.get('/v1/auth/me', { token: was.token });
      assert.equal(me.status, 200, `the session token of the SQLite appliance: ${me.text}`);

      const raw = await fetchBytes(app, was.apiKey, `/v1/inbound/${was.inboundId}/raw`);
      assert.equal(raw.status, 200);
      assert.ok(raw.bytes.equals(was.inboundRaw), 'inbound raw bytes as received');

      const sent = await app.api.post<{ id: string }>('/v1/emails', {
        token: was.apiKey,
        body: { from: `orders@${DOMAIN}`, to: ['after@dest.test'], subject: 'After', text: 'After the move' },
      });
      assert.equal(sent.status, 202, sent.text);
      const message = (await sink.waitForMessages(2)).find((m) => m.rcptTo.includes('after@dest.test'));
      assert.ok(message, 'delivered from the PostgreSQL appliance');
      const auth = await authenticate(message.raw, {
        ip: '127.0.0.1',
        helo: 'mx.mailroom.test',
        sender: message.mailFrom,
        resolver: fakeDnsResolver(fakeDns),
      });
      assert.equal(auth.dkim.results[0]?.status.result, 'pass', JSON.stringify(auth.dkim.results[0]?.status));

      await waitUntil('the webhook for the new send', () =>
        receiver.requests.some((q) => q.body.includes(sent.body.id)),
      );
      for (const q of receiver.requests)
        assert.ok(verifySignature(was.webhookSecret, q.headers['x-mail-signature'] as string, q.body));
    });
  },
);

// Issue 31 item 5: SMTP submission commits through the mta's writer thread, not on Haraka's
// event loop. The test holds the database's write lock (SQLite: BEGIN IMMEDIATE; PostgreSQL:
// an EXCLUSIVE lock on `emails`) while a message is submitted, so the submission's commit has
// to wait for it. Meanwhile:
// - PostgreSQL shows who waits: the one backend waiting on a lock must be the writer thread's
//   connection (`mailroom-mta-writer`), not the mta's own (`mailroom-mta`) — a commit on
//   Haraka's event loop would wait on mtaDb()'s connection instead;
// - another session on the same Haraka is served (banner and EHLO): better-sqlite3 waits for
//   a lock synchronously, so a commit on the loop would leave that session unanswered until
//   the lock was released (SQLite shows no lock waiters, so there this is the only sign);
// - the submission has no reply yet: no 250 before its commit could happen.
// Then the lock goes and the client gets its 250 with the email id of a committed row.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Db } from '../../src/db/connect';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import type { TestBackend } from '../helpers/open-database';
import { openApplianceDb } from '../helpers/open-database';
import { requirePostgres } from '../helpers/postgres';
import { SmtpClient } from '../helpers/smtp-client';
import type { SmtpSink } from '../helpers/smtp-sink';
import { startSmtpSink } from '../helpers/smtp-sink';
import { addVerifiedDomain } from '../helpers/verified-domain';
import { waitUntil } from '../helpers/wait-until';

const DOMAIN = 'apps.example.com';

const BACKENDS: readonly { name: TestBackend; options: { skip?: string } }[] = [
  { name: 'sqlite', options: {} },
  { name: 'postgres', options: requirePostgres() },
];

/** Holds the write lock a submission's commit needs until `release()`. */
async function holdWriteLock(db: Db, backend: TestBackend): Promise<{ release(): Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const held = new Promise<void>((resolve) => (locked = resolve));
  // SQLite: the transaction's BEGIN IMMEDIATE takes the write lock.
  const done = db.transaction().execute(async (trx) => {
    if (backend === 'postgres') await sql`lock table emails in exclusive mode`.execute(trx);
    locked();
    await released;
  });
  await Promise.race([held, done]);
  return {
    release: async () => {
      release();
      await done;
    },
  };
}

for (const backend of BACKENDS)
  describe(`SMTP submission commits in the mta's writer thread (${backend.name})`, backend.options, () => {
    let dnsServer: FakeDns;
    let sink: SmtpSink;
    let app: Appliance;
    let apiKey: string;
    let db: Db;

    before(async () => {
      dnsServer = await startDnsServer();
      sink = await startSmtpSink();
      app = await startAppliance({
        backend: backend.name,
        env: { DNS_SERVERS: dnsServer.address, SMTP_RELAY: sink.address, SUBMISSION_ALLOW_PLAINTEXT: 'true' },
      });
      const account = await app.api.registerWithKey();
      apiKey = account.apiKey;
      await addVerifiedDomain(app, dnsServer, account.token, DOMAIN);
      db = openApplianceDb(app);
    });
    after(async () => {
      await db.destroy();
      await app.stop();
      await sink.close();
      await dnsServer.close();
    });

    it('waits for the lock in the thread while Haraka serves another session; 250 only after the commit', async () => {
      const { client } = await SmtpClient.connect(app.ports.submission);
      try {
        assert.equal((await client.command('EHLO app.example')).code, 250);
        // AUTH first: its unit touches the key's last-used time, a write too.
        const plain = Buffer.from(`\0apikey\0${apiKey}`).toString('base64');
        assert.equal((await client.command(`AUTH PLAIN ${plain}`)).code, 235);
        const lock = await holdWriteLock(db, backend.name);
        let reply;
        try {
          assert.equal((await client.command(`MAIL FROM:<noreply@${DOMAIN}>`)).code, 250);
          assert.equal((await client.command('RCPT TO:<someone@dest.test>')).code, 250);
          assert.equal((await client.command('DATA')).code, 354);
          let answered = false;
          reply = client.raw(
            `From: noreply@${DOMAIN}\r\nTo: someone@dest.test\r\nSubject: behind a lock\r\n\r\nwaits\r\n.\r\n`,
          );
          reply.then(
            () => (answered = true),
            () => (answered = true),
          );
          if (backend.name === 'postgres') {
            let waiting: string[] = [];
            await waitUntil('a connection waiting on the lock', async () => {
              const rows = await sql<{ name: string }>`
                select application_name as name from pg_stat_activity
                where datname = current_database() and wait_event_type = 'Lock'
              `.execute(db);
              waiting = rows.rows.map((r) => r.name);
              return waiting.length > 0;
            });
            assert.deepEqual(waiting, ['mailroom-mta-writer'], 'the commit waits on the writer thread');
          }
          const probe = await SmtpClient.connect(app.ports.submission);
          try {
            assert.equal(probe.greeting.code, 220);
            assert.equal((await probe.client.command('EHLO probe.example')).code, 250);
          } finally {
            probe.client.close();
          }
          assert.equal(answered, false, 'no reply to the message while its commit cannot happen');
        } finally {
          await lock.release();
        }
        const done = await reply;
        assert.equal(done.code, 250, done.raw);
        const id = /Queued as (email_[A-Za-z0-9_-]+)/.exec(done.raw)?.[1];
        assert.ok(id, done.raw);
        const row = await db
          .selectFrom('emails')
          .select(['source', 'subject'])
          .where('id', '=', id)
          .executeTakeFirst();
        assert.deepEqual(row, { source: 'smtp', subject: 'behind a lock' });
      } finally {
        client.close();
      }
    });
  });

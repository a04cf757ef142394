import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Db } from '../../../src/db/connect';
import { migrate, openDatabase } from '../../../src/db/connect';
import { listEmails } from '../../../src/modules/emails/emails.repository';
import { listInbound } from '../../../src/modules/inbound/inbound.repository';
import { listSuppressions } from '../../../src/modules/suppressions/suppressions.repository';
import { insertAccount, insertEmail, inboundMessageRow } from '../../helpers/email-fixtures';
import { dropTestDatabase, postgresAvailable, testPostgresUrl } from '../../helpers/postgres';

// Issue 23 item 1: the repositories' searches answer the same on SQLite and PostgreSQL.
// SQLite's LIKE ignores ASCII case and PostgreSQL's does not; text order is byte-wise in
// SQLite and the locale's in PostgreSQL unless the columns say "C". Each case runs on
// both engines against the same rows.

interface Backend {
  readonly name: 'sqlite' | 'postgres';
  db: Db;
  cleanup(): Promise<void>;
}

const backends: Backend[] = [];

before(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-portable-'));
  const sqlite = openDatabase(`sqlite:${path.join(dir, 'mail.db')}`);
  backends.push({
    name: 'sqlite',
    db: sqlite,
    cleanup: async () => {
      await sqlite.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  });
  // Without a server the PostgreSQL half is left out loudly by postgres-connect.test.ts's
  // requirePostgres; here the SQLite half still runs.
  if (postgresAvailable()) {
    // A database whose default collation is a natural-language one (ICU en-US), as a
    // server initialised with an ordinary locale has: the app must not rely on "C".
    const url = await testPostgresUrl();
    const admin = openDatabase(url, { poolSize: 1 });
    const name = `${new URL(url).pathname.slice(1)}_icu`;
    await sql`create database ${sql.id(name)} template template0 encoding 'UTF8'
      locale_provider icu icu_locale 'en-US' locale 'C'`.execute(admin);
    const icuUrl = new URL(url);
    icuUrl.pathname = `/${name}`;
    const pg = openDatabase(icuUrl.toString(), { poolSize: 2 });
    backends.push({
      name: 'postgres',
      db: pg,
      cleanup: async () => {
        await pg.destroy();
        await sql`drop database ${sql.id(name)} with (force)`.execute(admin);
        await admin.destroy();
        await dropTestDatabase(url);
      },
    });
  }
  for (const b of backends) await migrate(b.db);
});
after(async () => {
  for (const b of backends) await b.cleanup();
});

const NOW = '2026-03-01T10:00:00.000Z';

describe('portable searches', () => {
  it('inbound search ignores ASCII case on both engines', async () => {
    for (const { name, db } of backends) {
      const account = await insertAccount(db);
      const row = inboundMessageRow({
        user_id: account.userId,
        received_at: NOW,
        subject: 'Quarterly REPORT',
      });
      await db.insertInto('inbound_messages').values(row).execute();
      const query = {
        userId: account.userId,
        unread: false,
        domainId: undefined,
        beforeId: undefined,
        limit: 10,
      };
      for (const search of ['report', 'REPORT', 'quarterly rep']) {
        const found = await listInbound(db, { ...query, search });
        assert.deepEqual(
          found.map((r) => r.id),
          [row.id],
          `${name}: ${search}`,
        );
      }
      assert.deepEqual(await listInbound(db, { ...query, search: 'REPORTS' }), [], name);
    }
  });

  it('an email tag filter ignores ASCII case on both engines, as SQLite always did', async () => {
    for (const { name, db } of backends) {
      const account = await insertAccount(db);
      const id = await insertEmail(db, account, { tags: { Category: 'Welcome' } });
      for (const tag of [
        { name: 'Category', value: 'Welcome' },
        { name: 'category', value: 'welcome' },
        { name: 'CATEGORY' },
      ]) {
        const found = await listEmails(db, { userId: account.userId, tag, limit: 10 });
        assert.deepEqual(
          found.map((r) => r.id),
          [id],
          `${name}: ${JSON.stringify(tag)}`,
        );
      }
      assert.deepEqual(await listEmails(db, { userId: account.userId, tag: { name: 'Cat' }, limit: 10 }), []);
    }
  });

  it('suppressions page by id in byte order whatever the server locale', async () => {
    for (const { name, db } of backends) {
      const account = await insertAccount(db);
      // Lower and upper case sort apart byte-wise ('B' < 'a'), together in most locales.
      for (const id of ['sup_a', 'sup_B', 'sup_c']) {
        await db
          .insertInto('suppressions')
          .values({
            id,
            user_id: account.userId,
            email: `${id}@example.org`,
            type: 'manual',
            reason: null,
            source_email_id: null,
            created_at: NOW,
          } as never)
          .execute();
      }
      const page = await listSuppressions(db, { userId: account.userId, before: 'sup_a', limit: 10 });
      assert.deepEqual(
        page.map((r) => r.id),
        ['sup_B'],
        name,
      );
    }
  });

  it('a suppressions search folds ASCII case only, as lower() does: a non-ASCII capital still finds its row', async () => {
    for (const { name, db } of backends) {
      const account = await insertAccount(db);
      await db
        .insertInto('suppressions')
        .values({
          id: 'sup_elodie',
          user_id: account.userId,
          email: 'Élodie.Martin@example.org',
          type: 'manual',
          reason: null,
          source_email_id: null,
          created_at: NOW,
        } as never)
        .execute();
      // toLowerCase() would make 'élodie' of the search, which lower() of the column ('Élodie') never equals.
      for (const text of ['ÉLODIE.M', 'Élodie', 'martin@EXAMPLE']) {
        const found = await listSuppressions(db, { userId: account.userId, text, limit: 10 });
        assert.deepEqual(
          found.map((r) => r.id),
          ['sup_elodie'],
          `${name}: ${text}`,
        );
      }
    }
  });
});

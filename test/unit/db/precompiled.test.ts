import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { migrate, openDb } from '../../../src/db/connect';
import type { Db } from '../../../src/db/connect';
import { byArity, Param, PreparedQuery } from '../../../src/db/precompiled';

// Issue 18 item 4: a slot is a named Param, not the value it stands for; these check
// that each shape the hot paths use (insert, multi-row insert, update with a set
// callback, IN lists, LIMIT, a value inside a function call) compiles to the SQL
// kysely writes for plain values, with the values given to `run` in the slots'
// places and the builder's constants left as they are.

let db: Db;
before(async () => {
  db = openDb({ file: path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-slots-')), 'mail.db') });
  await migrate(db);
});
after(() => db.destroy());

const NOW = '2026-01-01T00:00:00.000Z';

describe('PreparedQuery slots', () => {
  it('binds an insert (the send commit) with each value in its slot', () => {
    const q = new PreparedQuery<{ id: string; email: string; at: string }, unknown>((kdb, s) =>
      kdb.insertInto('users').values({
        id: s.param('id'),
        email: s.param('email'),
        name: 'constant',
        password_hash: 'x',
        status: 'ACTIVE',
        created_at: s.param('at'),
        updated_at: s.param('at'),
      }),
    );
    const bound = q.bind(db, { id: 'usr_1', email: 'a@example.com', at: NOW });
    assert.equal(
      bound.sql,
      'insert into "users" ("id", "email", "name", "password_hash", "status", "created_at", "updated_at") values (?, ?, ?, ?, ?, ?, ?)',
    );
    assert.deepEqual(bound.parameters, ['usr_1', 'a@example.com', 'constant', 'x', 'ACTIVE', NOW, NOW]);
  });

  it('binds a multi-row insert from list items (the recipients of a send)', () => {
    const q = byArity<{ id: readonly string[]; address: readonly string[]; emailId: string }, unknown>(
      (kdb, s, n) =>
        kdb.insertInto('email_recipients').values(
          Array.from({ length: n }, (_, i) => ({
            id: s.item('id', i),
            email_id: s.param('emailId'),
            user_id: 'usr_x',
            address: s.item('address', i),
            name: null,
            type: 'to' as const,
            status: 'queued' as const,
            smtp_response: null,
            updated_at: NOW,
          })),
        ),
    );
    const bound = q(2).bind(db, { id: ['r1', 'r2'], address: ['a@x', 'b@x'], emailId: 'em' });
    assert.match(bound.sql, /values \(\?(, \?){8}\), \(\?(, \?){8}\)$/);
    assert.deepEqual(bound.parameters, [
      ...['r1', 'em', 'usr_x', 'a@x', null, 'to', 'queued', null, NOW],
      ...['r2', 'em', 'usr_x', 'b@x', null, 'to', 'queued', null, NOW],
    ]);
  });

  it('binds an update with a set callback and an IN list (the claim)', () => {
    const q = byArity<{ ids: readonly string[]; owner: string; now: string }, { id: string }>((kdb, s, n) =>
      kdb
        .updateTable('jobs')
        .set((eb) => ({
          lease_owner: s.param('owner'),
          attempts: eb('attempts', '+', 1),
          updated_at: s.param('now'),
        }))
        .where('id', 'in', s.list('ids', n))
        .where('state', '=', 'queued')
        .returning('id'),
    );
    const bound = q(2).bind(db, { ids: ['job_a', 'job_b'], owner: 'w1', now: NOW });
    assert.equal(
      bound.sql,
      'update "jobs" set "lease_owner" = ?, "attempts" = "attempts" + ?, "updated_at" = ? where "id" in (?, ?) and "state" = ? returning "id"',
    );
    assert.deepEqual(bound.parameters, ['w1', 1, NOW, 'job_a', 'job_b', 'queued']);
  });

  it('binds LIMIT and a value inside a function call (claim candidates, delivery)', () => {
    const limited = new PreparedQuery<{ queue: string; limit: number }, { id: string }>((kdb, s) =>
      kdb.selectFrom('jobs').select('id').where('queue', '=', s.param('queue')).limit(s.param('limit')),
    );
    const a = limited.bind(db, { queue: 'email-send', limit: 8 });
    assert.equal(a.sql, 'select "id" from "jobs" where "queue" = ? limit ?');
    assert.deepEqual(a.parameters, ['email-send', 8]);

    const coalesced = new PreparedQuery<{ at: string; id: string }, unknown>((kdb, s) =>
      kdb
        .updateTable('emails')
        .set((eb) => ({ delivered_at: eb.fn.coalesce('delivered_at', eb.val(s.param('at'))) }))
        .where('id', '=', s.param('id')),
    );
    const b = coalesced.bind(db, { at: NOW, id: 'em_1' });
    assert.equal(b.sql, 'update "emails" set "delivered_at" = coalesce("delivered_at", ?) where "id" = ?');
    assert.deepEqual(b.parameters, [NOW, 'em_1']);
  });

  it('compiles an IN list of n items to n slots, each shape once', () => {
    const q = byArity<{ ids: readonly string[] }, { id: string }>((kdb, s, n) =>
      kdb.selectFrom('jobs').select('id').where('id', 'in', s.list('ids', n)),
    );
    for (const n of [1, 3, 7]) {
      const ids = Array.from({ length: n }, (_, i) => `job_${i}`);
      const bound = q(n).bind(db, { ids });
      assert.equal(bound.sql, `select "id" from "jobs" where "id" in (${Array(n).fill('?').join(', ')})`);
      assert.deepEqual(bound.parameters, ids);
    }
    assert.equal(q(3), q(3), 'one PreparedQuery per arity');
  });

  it('reuses the compiled statement: a second run binds new values and reads the rows', async () => {
    const q = new PreparedQuery<{ id: string }, { id: string; email: string }>((kdb, s) =>
      kdb.selectFrom('users').select(['id', 'email']).where('id', '=', s.param('id')),
    );
    for (const i of [1, 2]) {
      await db
        .insertInto('users')
        .values({
          id: `usr_run${i}`,
          email: `run${i}@example.com`,
          name: 'n',
          password_hash: 'x',
          status: 'ACTIVE',
          created_at: NOW,
          updated_at: NOW,
        })
        .execute();
    }
    assert.deepEqual(await q.first(db, { id: 'usr_run1' }), { id: 'usr_run1', email: 'run1@example.com' });
    assert.deepEqual(await q.first(db, { id: 'usr_run2' }), { id: 'usr_run2', email: 'run2@example.com' });
    assert.equal(await q.first(db, { id: 'usr_none' }), undefined);
  });

  it('a slot is an expression naming its value, not the value', () => {
    const p = new Param<readonly string[]>('ids', undefined);
    assert.equal(p.name, 'ids');
    assert.equal((p as unknown as { length?: number }).length, undefined);
  });
});

import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { claim } from '../../../src/jobs/claim';
import { DEFAULT_MAX_ATTEMPTS, enqueue } from '../../../src/jobs/enqueue';
import type { TestDb } from '../../helpers/test-db';
import { createTestDb } from '../../helpers/test-db';

const OWNER = 'test-owner';

void describe('enqueue', () => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb();
  });
  afterEach(async () => {
    await t.close();
  });

  void it('stores a queued job with its payload as JSON, due now, with the default attempt budget', async () => {
    const before = new Date().toISOString();
    const { id, created } = await enqueue(t.db, {
      queue: 'email-send',
      payload: { emailId: 'email_1', n: [1, 2] },
    });
    assert.equal(created, true);
    assert.match(id, /^job_[0-9a-z]{26}$/);
    const row = await t.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    assert.equal(row.queue, 'email-send');
    assert.equal(row.state, 'queued');
    assert.deepEqual(JSON.parse(row.payload), { emailId: 'email_1', n: [1, 2] });
    assert.equal(row.attempts, 0);
    assert.equal(row.max_attempts, DEFAULT_MAX_ATTEMPTS);
    assert.ok(row.run_at >= before && row.run_at <= new Date().toISOString());
    assert.equal(row.lease_owner, null);
    assert.equal(row.finished_at, null);
  });

  void it('does not let a job with runAt in the future be claimed before it is due', async () => {
    const runAt = new Date(Date.now() + 60_000);
    const { id } = await enqueue(t.db, { queue: 'dns-recheck', payload: {}, runAt });
    const early = await claim(t.db, { queues: ['dns-recheck'], owner: OWNER, leaseMs: 1_000, limit: 10 });
    assert.equal(early.jobs.length, 0);
    const due = await claim(t.db, {
      queues: ['dns-recheck'],
      owner: OWNER,
      leaseMs: 1_000,
      limit: 10,
      now: new Date(runAt.getTime() + 1),
    });
    assert.deepEqual(
      due.jobs.map((j) => j.id),
      [id],
    );
  });

  void it('keeps one job per (queue, dedupeKey) and returns the existing id', async () => {
    const first = await enqueue(t.db, { queue: 'mta-outcome', payload: { a: 1 }, dedupeKey: 'msg-1:rcpt-1' });
    const second = await enqueue(t.db, {
      queue: 'mta-outcome',
      payload: { a: 2 },
      dedupeKey: 'msg-1:rcpt-1',
    });
    assert.equal(first.created, true);
    assert.deepEqual(second, { id: first.id, created: false });
    const rows = await t.db.selectFrom('jobs').select(['id', 'payload']).execute();
    assert.deepEqual(rows, [{ id: first.id, payload: '{"a":1}' }]);
  });

  void it('keeps the key after the job finished, so a repeated producer still enqueues once', async () => {
    const first = await enqueue(t.db, { queue: 'mta-outcome', payload: {}, dedupeKey: 'k' });
    await t.db.updateTable('jobs').set({ state: 'succeeded' }).where('id', '=', first.id).execute();
    const again = await enqueue(t.db, { queue: 'mta-outcome', payload: {}, dedupeKey: 'k' });
    assert.deepEqual(again, { id: first.id, created: false });
  });

  void it('scopes the dedupe key to its queue and never dedupes jobs without a key', async () => {
    const a = await enqueue(t.db, { queue: 'mta-outcome', payload: {}, dedupeKey: 'same' });
    const b = await enqueue(t.db, { queue: 'bounce-processing', payload: {}, dedupeKey: 'same' });
    const c = await enqueue(t.db, { queue: 'mta-outcome', payload: {} });
    const d = await enqueue(t.db, { queue: 'mta-outcome', payload: {} });
    assert.ok([a, b, c, d].every((r) => r.created));
    assert.equal(new Set([a.id, b.id, c.id, d.id]).size, 4);
  });

  void it('enqueues inside the caller transaction: a rollback leaves no job', async () => {
    await assert.rejects(
      t.db.transaction().execute(async (trx) => {
        await enqueue(trx, { queue: 'email-send', payload: { emailId: 'x' } });
        throw new Error('rolled back');
      }),
      /rolled back/,
    );
    await t.db.transaction().execute(async (trx) => {
      await enqueue(trx, { queue: 'email-send', payload: { emailId: 'y' } });
    });
    const rows = await t.db.selectFrom('jobs').select('payload').execute();
    assert.deepEqual(rows, [{ payload: '{"emailId":"y"}' }]);
  });

  void it('rejects a payload JSON cannot carry and a non-positive attempt budget', async () => {
    await assert.rejects(enqueue(t.db, { queue: 'email-send', payload: undefined }), TypeError);
    await assert.rejects(enqueue(t.db, { queue: 'email-send', payload: {}, maxAttempts: 0 }), RangeError);
    await assert.rejects(enqueue(t.db, { queue: 'email-send', payload: {}, maxAttempts: 1.5 }), RangeError);
    assert.equal((await t.db.selectFrom('jobs').select('id').execute()).length, 0);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { MtaOutcomePayload } from '../../../src/modules/delivery/mta-outcome';
import { parseMtaOutcome } from '../../../src/modules/delivery/mta-outcome';
import pino from 'pino';
import { WriteBatcher } from '../../../src/db/write-batcher';
import type { Db } from '../../../src/db/connect';
import { outcomeDedupeKey, recordDeliveryReports } from '../../../src/mta/delivery-reports';
import type { TestDb } from '../../helpers/test-db';
import { createTestDb } from '../../helpers/test-db';

const base: MtaOutcomePayload = {
  emailId: 'email_0000000000000000000000000a',
  recipient: 'a@dest.test',
  outcome: 'delivered',
  smtpCode: 250,
  enhancedStatus: null,
  response: 'OK',
  attempt: 1,
  host: 'mx.dest.test',
  at: '2025-01-01T00:00:00.000Z',
};

describe('outcomeDedupeKey', () => {
  it('one final outcome per recipient, one deferral per attempt', () => {
    assert.equal(outcomeDedupeKey(base), 'email_0000000000000000000000000a:a@dest.test:delivered');
    assert.equal(
      outcomeDedupeKey({ ...base, outcome: 'bounced', attempt: 3 }),
      `${base.emailId}:a@dest.test:bounced`,
    );
    assert.equal(
      outcomeDedupeKey({ ...base, outcome: 'deferred', attempt: 2 }),
      `${base.emailId}:a@dest.test:deferred:2`,
    );
  });
});

/** The `mta.delivery-reports` unit on `db` with a group commit of its own. */
const recorder = (db: Db) => {
  const deps = { writes: new WriteBatcher(db), logger: pino({ level: 'silent' }), node: 'mta-node-1' };
  return (payloads: readonly MtaOutcomePayload[]) => recordDeliveryReports(deps, payloads);
};

// A report naming no known message is left to an `mta-outcome` job (the applied case:
// test/integration/emails-delivery-outcome-mta.test.ts).
describe('recordDeliveryReports, reports left to jobs (real database)', () => {
  let t: TestDb;
  before(async () => {
    t = await createTestDb();
  });
  after(() => t.close());

  const jobs = () =>
    t.db.selectFrom('jobs').select(['queue', 'payload', 'dedupe_key', 'state']).orderBy('id').execute();

  it('writes one mta-outcome job per payload, parseable by the worker’s parser', async () => {
    const deferred = { ...base, recipient: 'b@dest.test', outcome: 'deferred' as const, smtpCode: 451 };
    assert.equal(await recorder(t.db)([base, deferred]), 2);
    const rows = await jobs();
    assert.deepEqual(
      rows.map((r) => [r.queue, r.state, r.dedupe_key]),
      [
        ['mta-outcome', 'queued', outcomeDedupeKey(base)],
        ['mta-outcome', 'queued', outcomeDedupeKey(deferred)],
      ],
    );
    // A report without the TLS of its attempt (an older mta's) parses with `tls: null`; the job
    // carries the reporting node, so the worker that applies it later names that node (issue 23).
    assert.deepEqual(parseMtaOutcome(JSON.parse(rows[0]!.payload)), {
      ...base,
      tls: null,
      node: 'mta-node-1',
    });
  });

  it('a replayed hook adds nothing', async () => {
    const before = (await jobs()).length;
    assert.equal(await recorder(t.db)([{ ...base, at: '2025-01-01T00:00:09.000Z' }]), 0);
    assert.equal((await jobs()).length, before);
  });

  it('a later deferral of the same recipient is a new job', async () => {
    const again = { ...base, recipient: 'b@dest.test', outcome: 'deferred' as const, attempt: 2 };
    assert.equal(await recorder(t.db)([again]), 1);
  });

  it('nothing to record is no transaction at all', async () => {
    assert.equal(await recorder(t.db)([]), 0);
  });
});

describe('recordDeliveryReports (group commit, real database)', () => {
  let t: TestDb;
  before(async () => {
    t = await createTestDb();
  });
  after(() => t.close());

  it('hooks recording at once each get their own count, and every job is committed', async () => {
    const record = recorder(t.db);
    const payloads = ['a', 'b', 'c', 'd'].map((r) => ({ ...base, recipient: `${r}@dest.test` }));
    const counts = await Promise.all([
      record([payloads[0]!, payloads[1]!]),
      record([payloads[2]!]),
      record([payloads[0]!, payloads[3]!]),
      record([]),
    ]);
    assert.deepEqual(counts, [2, 1, 1, 0]);
    const keys = (
      await t.db.selectFrom('jobs').select('dedupe_key').where('queue', '=', 'mta-outcome').execute()
    )
      .map((r) => r.dedupe_key)
      .sort();
    assert.deepEqual(keys, payloads.map((p) => outcomeDedupeKey(p)).sort());
  });
});

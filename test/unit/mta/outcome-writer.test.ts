import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { MtaOutcomePayload } from '../../../src/modules/emails/mta-outcome';
import { outcomeDedupeKey } from '../../../src/mta/outcome-jobs';
import { threadedOutcomeRecorder } from '../../../src/mta/outcome-writer';
import type { TestDb } from '../jobs/job-test-db';
import { createTestDb } from '../jobs/job-test-db';

const base: MtaOutcomePayload = {
  emailId: 'email_0000000000000000000000000b',
  recipient: 'a@dest.test',
  outcome: 'delivered',
  smtpCode: 250,
  enhancedStatus: null,
  response: 'OK',
  attempt: 1,
  host: 'mx.dest.test',
  at: '2025-01-01T00:00:00.000Z',
};

describe('threadedOutcomeRecorder (writer thread, real database)', () => {
  let t: TestDb;
  before(async () => {
    t = await createTestDb();
  });
  after(() => t.close());

  it('resolves once the jobs are committed, as seen from another connection', async () => {
    const record = threadedOutcomeRecorder({ file: t.file });
    try {
      const payloads = ['a', 'b', 'c'].map((r) => ({ ...base, recipient: `${r}@dest.test` }));
      const counts = await Promise.all([record([payloads[0]!, payloads[1]!]), record([payloads[2]!])]);
      assert.deepEqual(counts, [2, 1]);
      const reader = t.open();
      const keys = (
        await reader.selectFrom('jobs').select('dedupe_key').where('queue', '=', 'mta-outcome').execute()
      )
        .map((r) => r.dedupe_key)
        .sort();
      assert.deepEqual(keys, payloads.map((p) => outcomeDedupeKey(p)).sort());
      assert.equal(await record([payloads[0]!]), 0, 'a replayed hook adds nothing');
    } finally {
      await record.close();
    }
  });

  it('a write that fails rejects its caller, and a thread that cannot start fails every caller', async () => {
    const broken = threadedOutcomeRecorder({ file: path.join(t.file, 'not-a-dir', 'mail.db') });
    try {
      await assert.rejects(broken([base]));
    } finally {
      await broken.close();
    }
  });
});

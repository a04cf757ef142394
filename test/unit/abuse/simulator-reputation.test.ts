// Simulator recipients and test mail cost no reputation (issue 21): the abuse signals'
// inputs, read from a real database built by the migrations, leave them out.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../../src/db/connect';
import { signalInputs } from '../../../src/modules/abuse/abuse.repository';
import type { Account } from '../../helpers/email-fixtures';
import { insertAccount, insertEmail } from '../../helpers/email-fixtures';
import type { TestDb } from '../../helpers/test-db';
import { createTestDb } from '../../helpers/test-db';

describe('abuse signal inputs without simulator recipients and test mail', () => {
  let t: TestDb;
  let db: Db;
  let account: Account;

  before(async () => {
    t = await createTestDb();
    db = t.db;
    account = await insertAccount(db);
  });
  after(() => t.close());

  it('counts real recipients only', async () => {
    const real = await insertEmail(db, account, {
      status: 'bounced',
      recipients: [
        { address: 'gone@example.org', status: 'bounced' },
        { address: 'bounced@simulator.mailroom.invalid', status: 'bounced' },
        { address: 'complained+x@simulator.mailroom.invalid', status: 'complained' },
      ],
    });
    const test = await insertEmail(db, account, {
      status: 'bounced',
      recipients: [
        { address: 'someone@example.org', status: 'bounced' },
        { address: 'someone-else@example.org', status: 'complained' },
      ],
    });
    await db.updateTable('emails').set({ mode: 'test' }).where('id', '=', test).execute();
    for (let i = 0; i < 25; i++) {
      await insertEmail(db, account, { status: 'delivered', to: ['delivered@simulator.mailroom.invalid'] });
    }
    assert.ok(real);

    const inputs = await signalInputs(db, account.userId, { now: new Date(Date.now() + 1000) });
    assert.equal(inputs.attempted, 1);
    assert.equal(inputs.bounced, 1);
    assert.equal(inputs.complained, 0);
    // 25 messages to one simulator address are no recipient repetition.
    assert.deepEqual(inputs.topRecipient, { address: 'gone@example.org', count: 1 });
  });
});

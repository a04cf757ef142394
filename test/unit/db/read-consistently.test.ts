import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../../src/db/connect';
import { readConsistently } from '../../../src/db/read-consistently';
import { recordEmailEvent } from '../../../src/modules/emails/email-events.repository';
import { getEmailView } from '../../../src/modules/emails/emails.usecases';
import { eventsOf, recipientsOf } from '../../../src/modules/emails/emails.repository';
import type { Account } from '../../helpers/email-fixtures';
import { insertAccount, insertEmail } from '../../helpers/email-fixtures';
import type { TestDb } from '../../helpers/test-db';
import { createTestDb } from '../../helpers/test-db';

// A message's view is read in several statements (the message, its recipients, its timeline). A
// delivery report committed between them once showed its "waiting" timeline entry beside recipients
// still `sent` (CI, PostgreSQL: mta-pacing-timeline). readConsistently gives the reads one snapshot.
describe('readConsistently (real database, either backend)', () => {
  let t: TestDb;
  let other: Db;
  let account: Account;

  before(async () => {
    t = await createTestDb();
    other = t.open();
    account = await insertAccount(t.db);
  });
  after(() => t.close());

  /** What a delivery report does, committed from another connection (another process). */
  async function deferFromElsewhere(emailId: string): Promise<void> {
    await other.transaction().execute(async (trx) => {
      await trx
        .updateTable('email_recipients')
        .set({ status: 'deferred' })
        .where('email_id', '=', emailId)
        .execute();
      await recordEmailEvent(trx, {
        emailId,
        userId: account.userId,
        type: 'deferred',
        message: 'attempt 1: waiting',
      });
    });
  }

  async function readAcrossACommit(db: Db, emailId: string) {
    const recipients = await recipientsOf(db, [emailId]);
    await deferFromElsewhere(emailId);
    const events = await eventsOf(db, emailId);
    return { statuses: recipients.map((r) => r.status), types: events.map((e) => e.type) };
  }

  it('without it, reads on either side of a commit mix two states (the skew it prevents)', async () => {
    const id = await insertEmail(t.db, account, { status: 'sent' });
    const seen = await readAcrossACommit(t.db, id);
    assert.deepEqual(seen.statuses, ['sent']);
    assert.ok(seen.types.includes('deferred'), 'the later read sees the commit');
  });

  it('with it, every read sees the state from before the commit, and the next view the one after', async () => {
    const id = await insertEmail(t.db, account, { status: 'sent' });
    const seen = await readConsistently(t.db, (db) => readAcrossACommit(db, id));
    assert.deepEqual(seen.statuses, ['sent']);
    assert.ok(!seen.types.includes('deferred'), JSON.stringify(seen.types));
    const view = await getEmailView({ db: t.db, userId: account.userId, emailId: id });
    assert.deepEqual(
      view.recipients.map((r) => r.status),
      ['deferred'],
    );
    assert.ok(view.events?.some((e) => e.type === 'deferred'));
  });

  it('takes no write lock: another connection commits while it is open', async () => {
    const id = await insertEmail(t.db, account, { status: 'sent' });
    await readConsistently(t.db, async (db) => {
      await recipientsOf(db, [id]);
      await deferFromElsewhere(id);
    });
    const rows = await t.db
      .selectFrom('email_recipients')
      .select('status')
      .where('email_id', '=', id)
      .execute();
    assert.deepEqual(
      rows.map((r) => r.status),
      ['deferred'],
    );
  });
});

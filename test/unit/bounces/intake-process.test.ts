// processReport against a real SQLite database built by the real migrations.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { EmailStatus } from '../../../src/db/schema';
import type { ReportOutcome } from '../../../src/modules/bounces/bounce-job';
import { processReport } from '../../../src/modules/bounces/bounce-job';
import type { BounceJobPayload } from '../../../src/mail/bounce-intake';
import type { TestDb } from '../../helpers/test-db';
import { createTestDb } from '../../helpers/test-db';
import type { Account } from '../../helpers/email-fixtures';
import { insertAccount, insertEmail } from '../../helpers/email-fixtures';
import { taggedVerpAddress, verpAddress, verpKey } from '../../../src/mail/verp-address';
import { buildArf, buildDsn } from '../../helpers/intake-reports';

const AT = '2024-01-01T00:00:00.000Z';
const KEY = verpKey('intake-process-test-secret-0123456789abc');

function payload(rcptTo: string[] = []): BounceJobPayload {
  return {
    rawPath: '/nonexistent',
    sha256: '0'.repeat(64),
    size: 1,
    mailFrom: rcptTo.length > 0 ? '' : null,
    rcptTo,
    remoteIp: '127.0.0.1',
    helo: null,
    receivedAt: AT,
  };
}

describe('processReport', () => {
  let t: TestDb;
  let account: Account;

  before(async () => {
    t = await createTestDb();
    account = await insertAccount(t.db, { domain: 'example.test' });
  });
  after(async () => t.close());

  async function message(status: EmailStatus, addresses = ['a@dest.test']): Promise<string> {
    return insertEmail(t.db, account, {
      queuedEvent: false,
      status,
      createdAt: AT,
      recipients: addresses.map((address) => ({ address, status })),
    });
  }

  async function run(raw: string, rcptTo: string[] = []): Promise<ReportOutcome> {
    return processReport(t.db, { payload: payload(rcptTo), raw: Buffer.from(raw), verpKey: KEY });
  }

  async function state(id: string) {
    const email = await t.db.selectFrom('emails').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const recipients = await t.db
      .selectFrom('email_recipients')
      .selectAll()
      .where('email_id', '=', id)
      .execute();
    const events = await t.db.selectFrom('email_events').selectAll().where('email_id', '=', id).execute();
    const outbox = await t.db.selectFrom('outbox').selectAll().where('email_id', '=', id).execute();
    const suppressions = await t.db
      .selectFrom('suppressions')
      .selectAll()
      .where('source_email_id', '=', id)
      .execute();
    return { email, recipients, events, outbox, suppressions };
  }

  const hard = (id: string, tag?: string, recipient = 'a@dest.test'): string =>
    buildDsn({
      to: null,
      recipient,
      messageId: `<${id}@example.test>`,
      status: '5.1.1',
      diagnostic:
        '550 5.1.1 <a@dest.test>: Recipient address rejected: User unknown in local recipient table',
      ...(tag ? { tag } : {}),
    });

  it('applies a hard bounce matched by Message-ID: bounced, suppressed, email.bounced, abuse evaluation', async () => {
    const id = await message('sent');
    const out = await run(hard(id));
    assert.equal(out.kind, 'matched');
    assert.equal(out.kind === 'matched' && out.matchedBy, 'message_id');
    const s = await state(id);
    assert.equal(s.email.status, 'bounced');
    assert.equal(s.recipients[0]?.status, 'bounced');
    assert.match(s.email.smtp_response ?? '', /^550 5\.1\.1 .*User unknown/);
    assert.deepEqual(
      s.events.map((e) => e.type),
      ['bounced'],
    );
    assert.deepEqual(
      s.suppressions.map((x) => [x.email, x.type]),
      [['a@dest.test', 'hard_bounce']],
    );
    const hook = JSON.parse(s.outbox[0]?.payload ?? '{}') as Record<string, unknown>;
    assert.equal(hook.event, 'email.bounced');
    assert.equal(hook.statusCode, 550);
    assert.match(String(hook.reason), /^550 5\.1\.1 /);
    const audits = await t.db
      .selectFrom('audit_log')
      .select('action')
      .where('user_id', '=', account.userId)
      .execute();
    assert.ok(audits.some((a) => a.action === 'suppression.created'));
    const abuse = await t.db
      .selectFrom('jobs')
      .select('id')
      .where('queue', '=', 'abuse-evaluation')
      .execute();
    assert.ok(abuse.length >= 1);
  });

  it('applies the same bytes once, and a copy with other bytes changes nothing', async () => {
    const id = await message('delivered', ['late@dest.test']);
    assert.equal((await run(hard(id, undefined, 'late@dest.test'))).kind, 'matched');
    assert.equal((await run(hard(id, undefined, 'late@dest.test'))).kind, 'duplicate');
    const copy = await run(hard(id, '(resent)', 'late@dest.test'));
    assert.equal(copy.kind, 'matched');
    assert.deepEqual(copy.kind === 'matched' && copy.effects.map((e) => [e.applied, e.suppressed]), [
      [false, false],
    ]);
    const s = await state(id);
    assert.equal(s.recipients[0]?.status, 'bounced', 'delivered → bounced (a late bounce)');
    assert.equal(s.events.length, 1);
    assert.equal(s.outbox.length, 1);
    assert.equal(s.suppressions.length, 1);
  });

  it('records a transient soft bounce once without changing the status', async () => {
    const id = await message('sent');
    const soft = (tag?: string): string =>
      buildDsn({
        to: null,
        recipient: 'a@dest.test',
        messageId: `<${id}@example.test>`,
        status: '4.2.2',
        diagnostic: '452 4.2.2 Mailbox full',
        ...(tag ? { tag } : {}),
      });
    await run(soft());
    await run(soft('(again)'));
    const s = await state(id);
    assert.equal(s.recipients[0]?.status, 'sent');
    assert.deepEqual(
      s.events.map((e) => e.type),
      ['soft_bounce'],
    );
    assert.equal(s.outbox.length, 0);
    assert.equal(s.suppressions.length, 0);
  });

  it('bounces on a permanent soft bounce but does not suppress', async () => {
    const id = await message('sent');
    await run(
      buildDsn({
        to: null,
        recipient: 'a@dest.test',
        messageId: `<${id}@example.test>`,
        status: '5.2.2',
        diagnostic: '552 5.2.2 Mailbox full: quota exceeded',
      }),
    );
    const s = await state(id);
    assert.equal(s.recipients[0]?.status, 'bounced');
    assert.equal(s.outbox[0]?.event, 'email.bounced');
    assert.equal(s.suppressions.length, 0);
  });

  it('ties an untagged return path to its message only at the host of its own domain; a tagged one (in flight) needs its tag', async () => {
    // Test mail may be sent from a domain not verified yet: the simulator's reports come back to it too.
    const trial = await insertAccount(t.db, { domain: 'trial.test', domainStatus: 'PENDING' });
    const other = await insertAccount(t.db, { domain: 'other.test' });
    const dsn = (to: string, tag: string) =>
      buildDsn({
        to: null,
        recipient: to,
        messageId: '<unknown@x.test>',
        status: '5.1.1',
        diagnostic: '550 5.1.1 User unknown',
        tag,
      });
    const untagged = await insertEmail(t.db, trial, {
      queuedEvent: false,
      status: 'delivered',
      createdAt: AT,
      recipients: [{ address: 'u@dest.test', status: 'delivered' }],
    });
    // Its id at another account's host: that account's scope, not this message.
    const forged = await run(dsn('u@dest.test', 'forged'), [verpAddress(untagged, 'other.test')]);
    assert.equal(forged.kind, 'unmatched');
    assert.equal((await state(untagged)).email.status, 'delivered');
    const wrongTag = taggedVerpAddress(
      untagged,
      'trial.test',
      verpKey('another-secret-0123456789abcdefghijklmn'),
    );
    assert.equal((await run(dsn('u@dest.test', 'wrong tag'), [wrongTag])).kind, 'unmatched');
    const out = await run(dsn('u@dest.test', 'genuine'), [verpAddress(untagged, 'trial.test')]);
    assert.equal(out.kind === 'matched' && out.matchedBy, 'verp');
    assert.equal((await state(untagged)).email.status, 'bounced');

    const tagged = await insertEmail(t.db, other, {
      queuedEvent: false,
      status: 'delivered',
      createdAt: AT,
      recipients: [{ address: 't@dest.test', status: 'delivered' }],
    });
    const matched = await run(dsn('t@dest.test', 'tagged'), [taggedVerpAddress(tagged, 'other.test', KEY)]);
    assert.equal(matched.kind === 'matched' && matched.matchedBy, 'verp');
    assert.equal((await state(tagged)).email.status, 'bounced');
  });

  it('applies a complaint tied by the VERP envelope recipient to the right recipient', async () => {
    const id = await message('delivered', ['a@dest.test', 'b@dest.test']);
    const out = await run(
      buildArf({
        to: null,
        originalRcptTo: 'b@dest.test',
        recipient: 'b@dest.test',
        messageId: '<unknown@x.test>',
      }),
      [verpAddress(id, account.domain)],
    );
    assert.equal(out.kind === 'matched' && out.matchedBy, 'verp');
    const s = await state(id);
    assert.deepEqual(s.recipients.map((r) => [r.address, r.status]).sort(), [
      ['a@dest.test', 'delivered'],
      ['b@dest.test', 'complained'],
    ]);
    assert.equal(s.email.status, 'complained');
    assert.deepEqual(
      s.outbox.map((o) => o.event),
      ['email.complained'],
    );
    assert.deepEqual(
      s.suppressions.map((x) => [x.email, x.type]),
      [['b@dest.test', 'complaint']],
    );
  });

  it('records an unmatched report and a message that is no report at all', async () => {
    const out = await run(hard('email_00000000000000000000000000'));
    assert.equal(out.kind, 'unmatched');
    assert.deepEqual(
      out.kind === 'unmatched' && out.tried.messageId,
      '<email_00000000000000000000000000@example.test>',
    );
    assert.equal(
      (await run('From: a@b.test\r\nSubject: hello\r\n\r\nJust saying hi.\r\n')).kind,
      'not_a_report',
    );
    const rows = await t.db.selectFrom('bounce_reports').select('outcome').execute();
    assert.ok(rows.some((r) => r.outcome === 'unmatched'));
    assert.ok(rows.some((r) => r.outcome === 'not_a_report'));
  });
});

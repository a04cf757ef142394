import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseConfig } from '../../../src/config';
import { startMtaWriter } from '../../../src/mta/mta-writer';
import type { Submitter } from '../../../src/mta/submission/submission-auth';
import { submissionErrorVerdict } from '../../../src/mta/submission/submission-verdicts';
import { createApiKey } from '../../../src/modules/api-keys/api-keys.usecases';
import type { Account } from '../../helpers/email-fixtures';
import { insertAccount } from '../../helpers/email-fixtures';
import type { TestDb } from '../../helpers/test-db';
import { createTestDb } from '../../helpers/test-db';

/** A message as a client submits it, in an ArrayBuffer of its own (as messageBytes() reads it). */
function message(from: string, subject: string): Uint8Array {
  const text = `From: ${from}\r\nTo: someone@dest.test\r\nSubject: ${subject}\r\n\r\nHello\r\n`;
  return new Uint8Array(Buffer.from(text, 'latin1'));
}

describe('the mta writer thread: SMTP submission (units mta.submission-auth and mta.submission)', () => {
  let t: TestDb;
  let account: Account;
  let apiKey: string;
  before(async () => {
    t = await createTestDb();
    account = await insertAccount(t.db);
    apiKey = (
      await createApiKey({
        db: t.db,
        userId: account.userId,
        actor: { type: 'user', id: account.userId, ip: null, userAgent: null },
        input: { name: 'smtp', mode: 'live', permission: 'full_access' },
      })
    ).token;
  });
  after(() => t.close());

  const writer = () =>
    startMtaWriter({
      url: t.url,
      config: { ...parseConfig({ DATA_DIR: t.dataDir, DATABASE_URL: t.url }), secretKey: 'k'.repeat(32) },
    });

  it('AUTH: a live key gives its submitter; a password that is no key is 535, counted and audited', async () => {
    const thread = writer();
    try {
      const good = await thread.submission.authenticate({ password: apiKey, ip: '192.0.2.7' });
      assert.ok(good.ok);
      assert.equal(good.submitter.userId, account.userId);
      assert.equal(good.submitter.domainId, null);
      const bad = await thread.submission.authenticate({ password: 're_live_nope', ip: '192.0.2.8' });
      assert.deepEqual(bad, {
        ok: false,
        code: 535,
        message: '5.7.8 Authentication failed: the password must be a live API key',
        failed: true,
      });
      const reader = t.open();
      try {
        const hits = await reader
          .selectFrom('credential_attempts')
          .select('key')
          .where('key', 'like', 'smtp-auth:%')
          .execute();
        assert.deepEqual(
          hits.map((h) => h.key),
          ['smtp-auth:192.0.2.8'],
        );
        const audited = await reader
          .selectFrom('audit_log')
          .select('ip')
          .where('action', '=', 'user.login_failed')
          .execute();
        assert.deepEqual(audited, [{ ip: '192.0.2.8' }]);
      } finally {
        await reader.destroy();
      }
    } finally {
      await thread.close();
    }
  });

  it('commits the email, its raw message and its email-send job; the bytes move to the thread; a refusal crosses whole', async () => {
    const thread = writer();
    try {
      const auth = await thread.submission.authenticate({ password: apiKey, ip: '192.0.2.7' });
      assert.ok(auth.ok);
      const submitter: Submitter = auth.submitter;
      const raw = message(`noreply@${account.domain}`, 'via the thread');
      const size = raw.byteLength;
      const { id } = await thread.submission.commit({
        submitter,
        mailFrom: `noreply@${account.domain}`,
        rcptTo: ['someone@dest.test'],
        raw,
      });
      assert.equal(raw.byteLength, 0, 'transferred, not copied: the caller no longer holds the bytes');
      const reader = t.open();
      try {
        const email = await reader
          .selectFrom('emails')
          .select(['source', 'subject', 'status'])
          .where('id', '=', id)
          .executeTakeFirst();
        assert.deepEqual(email, { source: 'smtp', subject: 'via the thread', status: 'queued' });
        const stored = await reader
          .selectFrom('email_raw_messages')
          .select('content')
          .where('email_id', '=', id)
          .executeTakeFirst();
        assert.ok(stored && stored.content.length >= size, 'the message is stored');
        const jobs = await reader
          .selectFrom('jobs')
          .select('queue')
          .where('queue', '=', 'email-send')
          .execute();
        assert.equal(jobs.length, 1);
      } finally {
        await reader.destroy();
      }
      const refused = await thread.submission
        .commit({
          submitter,
          mailFrom: 'someone@not-mine.test',
          rcptTo: ['someone@dest.test'],
          raw: message('someone@not-mine.test', 'refused'),
        })
        .then(
          () => assert.fail('an unknown From domain is refused'),
          (err: unknown) => submissionErrorVerdict(err),
        );
      assert.equal(refused.kind, 'reject');
      assert.equal(`${refused.code} ${refused.status}`, '550 5.7.1');
    } finally {
      await thread.close();
    }
  });
});

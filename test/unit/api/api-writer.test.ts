import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Db } from '../../../src/db/connect';
import pino from 'pino';
import type { AppConfig } from '../../../src/config';
import { parseConfig } from '../../../src/config';
import type { ApiWriter } from '../../../src/api/api-writer';
import { startApiWriter } from '../../../src/api/api-writer';
import type { ApiSend } from '../../../src/modules/sending/api-send';
import { parseMailbox } from '../../../src/mail/address';
import { sendEmail } from '../../../src/modules/sending/send-email';
import { isAppError } from '../../../src/shared/app-error';
import { newId } from '../../../src/shared/ids';
import { insertAccount } from '../../helpers/email-fixtures';
import type { UserRow } from '../../../src/modules/accounts/accounts.repository';
import { createTestDb } from '../../helpers/test-db';

const at = '2026-01-01T00:00:00.000Z';

interface Fixture {
  readonly db: Db;
  readonly config: AppConfig;
  readonly user: UserRow;
  readonly domain: string;
}

async function fixture(): Promise<Fixture> {
  const testDb = await createTestDb();
  const dir = testDb.dataDir;
  const config: AppConfig = {
    ...parseConfig({
      DATA_DIR: dir,
      DATABASE_URL: testDb.url,
      EMAIL_MAX_SIZE_BYTES: '10000',
      RATE_LIMIT_EMAILS_PER_HOUR: '1000',
      NEW_ACCOUNT_EMAILS_PER_HOUR: '1000',
    }),
    secretKey: 'k'.repeat(32),
  };
  const db = testDb.db;
  const account = await insertAccount(db, { createdAt: at });
  await db.updateTable('users').set({ emails_per_hour: 3 }).where('id', '=', account.userId).execute();
  const user = await db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', account.userId)
    .executeTakeFirstOrThrow();
  const { domain } = await db
    .selectFrom('domains')
    .select('domain')
    .where('id', '=', account.domainId)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('suppressions')
    .values({
      id: newId('sup'),
      user_id: user.id,
      email: 'gone@dest.example',
      type: 'manual',
      reason: null,
      source_email_id: null,
      created_at: at,
    })
    .execute();
  return { db, config, user, domain };
}

function send(user: UserRow, domain: string, to: string): ApiSend {
  const from = parseMailbox(`Shop <orders@${domain}>`);
  assert.ok(from);
  return {
    id: newId('email'),
    now: new Date().toISOString(),
    user,
    apiKeyId: null,
    from,
    recipients: [{ address: to, name: null, type: 'to' }],
    size: { bytes: 100, text: 'Bodies plus attachments are' },
    fields: {
      source: 'api',
      from_address: from.address,
      from_header: `Shop <orders@${domain}>`,
      subject: 'hello',
      reply_to: null,
      headers: null,
      tags: null,
      metadata: null,
      html: '<p>hi</p>',
      text: null,
      scheduled_at: null,
    },
    attachments: [
      { filename: 'a.txt', contentType: 'text/plain', cid: null, bytes: Buffer.from('attached') },
    ],
    queuedMessage: 'accepted',
  };
}

async function refusal(p: Promise<unknown>) {
  const err = await p.then(
    () => assert.fail('expected a refusal'),
    (e: unknown) => e,
  );
  assert.ok(isAppError(err), `an AppError, got ${String(err)}`);
  return err;
}

describe('the api writer thread (unit email.commit)', () => {
  it('commits sends in its thread; each is readable once its promise resolved', async () => {
    const { db, config, user, domain } = await fixture();
    const writer = startApiWriter(config, { onFatal: (err) => assert.fail(String(err)) });
    try {
      const sends = [send(user, domain, 'a@dest.example'), send(user, domain, 'b@dest.example')];
      const done = await Promise.all(sends.map((s) => writer.commit(s)));
      const { id: domainId } = await db
        .selectFrom('domains')
        .select('id')
        .where('domain', '=', domain)
        .executeTakeFirstOrThrow();
      assert.equal(done[0]?.domainId, domainId);
      assert.deepEqual(done[1]?.usage.hour, { used: 2, limit: 3 });
      for (const s of sends) {
        const row = await db.selectFrom('emails').selectAll().where('id', '=', s.id).executeTakeFirst();
        assert.equal(row?.message_id, `<${s.id}@${domain}>`);
        const att = await db
          .selectFrom('email_attachments')
          .select('content')
          .where('email_id', '=', s.id)
          .executeTakeFirstOrThrow();
        assert.equal(Buffer.from(att.content).toString(), 'attached');
      }
    } finally {
      await writer.close();
      await db.destroy();
    }
  });

  it('returns refusals as the same AppErrors and writes nothing for them', async () => {
    const { db, config, user, domain } = await fixture();
    const writer = startApiWriter(config, { onFatal: (err) => assert.fail(String(err)) });
    try {
      const suppressed = await refusal(writer.commit(send(user, domain, 'gone@dest.example')));
      assert.equal(suppressed.code, 'SUPPRESSED_RECIPIENT');
      assert.deepEqual(suppressed.details, {
        recipients: ['gone@dest.example'],
        suppressions: [{ email: 'gone@dest.example', type: 'manual', since: '2026-01-01T00:00:00.000Z' }],
      });

      for (const to of ['a@dest.example', 'b@dest.example', 'c@dest.example'])
        await writer.commit(send(user, domain, to));
      const spent = await refusal(writer.commit(send(user, domain, 'd@dest.example')));
      assert.equal(spent.code, 'SENDING_LIMIT_EXCEEDED');
      assert.equal(spent.status, 429);
      assert.match(spent.headers?.['Retry-After'] ?? '', /^\d+$/);

      const { n } = await db
        .selectFrom('emails')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(n, 3);
    } finally {
      await writer.close();
      await db.destroy();
    }
  });

  it('ends its thread when idle and starts a new one for the next send', async () => {
    const { db, config, user, domain } = await fixture();
    const writer = startApiWriter(config, { idleMs: 100, onFatal: (err) => assert.fail(String(err)) });
    try {
      assert.equal(writer.running, false);
      await writer.commit(send(user, domain, 'a@dest.example'));
      assert.equal(writer.running, true);
      while (writer.running) await new Promise((r) => setTimeout(r, 20));
      await writer.commit(send(user, domain, 'b@dest.example'));
      const rows = await db.selectFrom('emails').select('id').execute();
      assert.equal(rows.length, 2);
    } finally {
      await writer.close();
      await db.destroy();
    }
  });
});

describe('a refusal the main thread already knows (issue 18 item 3)', () => {
  const sendTo = (f: Fixture, writer: ApiWriter, to: string, from: string) =>
    sendEmail({
      db: f.db,
      committer: writer,
      config: f.config,
      log: pino({ level: 'silent' }),
      user: f.user,
      apiKeyId: null,
      mode: 'live',
      input: { from, to, subject: 'hello', text: 'hi' },
      idempotency: undefined,
    });

  it("is raised in the spec's order without starting the writer thread", async () => {
    const f = await fixture();
    const writer = startApiWriter(f.config, { onFatal: (err) => assert.fail(String(err)) });
    try {
      const screened = await refusal(sendTo(f, writer, 'not an address', `orders@${f.domain}`));
      assert.equal(screened.code, 'INVALID_RECIPIENT');
      assert.deepEqual(screened.details, { field: 'to[0]', value: 'not an address' });
      // The domain's checks come first (spec order), read on the main thread too.
      const unknown = await refusal(sendTo(f, writer, 'not an address', 'orders@elsewhere.example'));
      assert.equal(unknown.code, 'DOMAIN_NOT_FOUND');
      assert.equal(writer.running, false, 'the writer thread was never asked');
      const { n } = await f.db
        .selectFrom('emails')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(n, 0);
    } finally {
      await writer.close();
      await f.db.destroy();
    }
  });
});

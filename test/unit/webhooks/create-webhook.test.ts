import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isAppError } from '../../../src/shared/app-error';
import { insertUser } from '../../../src/modules/accounts/accounts.repository';
import type { Actor } from '../../../src/modules/audit/audit.repository';
import { listAudit } from '../../../src/modules/audit/audit.repository';
import { createAddressGuard } from '../../../src/mail/address-guard';
import { createDestinationCheck } from '../../../src/modules/webhooks/destination-check';
import { createHostResolver } from '../../../src/modules/webhooks/host-resolver';
import { secretContext } from '../../../src/modules/webhooks/webhook-signature';
import { countWebhooks, findWebhook } from '../../../src/modules/webhooks/webhooks.repository';
import { createWebhookBody } from '../../../src/modules/webhooks/webhooks.schemas';
import {
  createWebhook,
  MAX_WEBHOOKS_PER_ACCOUNT,
  updateWebhook,
} from '../../../src/modules/webhooks/webhooks.usecases';
import { createSealer } from '../../../src/shared/seal';
import type { FakeDns } from '../../helpers/dns-server';
import { startDnsServer } from '../../helpers/dns-server';
import type { TestDb } from '../../helpers/test-db';
import { createTestDb } from '../../helpers/test-db';

const actor: Actor = { type: 'user', id: null, ip: '127.0.0.1', userAgent: 'test' };

describe('creating webhooks with the SSRF guard on (real database, fake DNS)', () => {
  let t: TestDb;
  let dns: FakeDns;
  const sealer = createSealer({ secretKey: 'k'.repeat(40) });
  let checkDestination: ReturnType<typeof createDestinationCheck>;

  const create = (userId: string, url: string) =>
    createWebhook({
      db: t.db,
      userId,
      actor,
      sealer,
      checkDestination,
      input: createWebhookBody.parse({ url, events: ['email.sent'] }),
    });

  const refusal = async (promise: Promise<unknown>): Promise<string> => {
    try {
      await promise;
    } catch (err) {
      assert.ok(isAppError(err));
      assert.equal(err.code, 'VALIDATION_ERROR');
      return err.message;
    }
    assert.fail('expected a refusal');
  };

  before(async () => {
    t = await createTestDb();
    dns = await startDnsServer();
    checkDestination = createDestinationCheck({
      guard: createAddressGuard({ allowPrivate: false, allowedCidrs: [] }),
      resolve: createHostResolver({ servers: [{ host: dns.host, port: dns.port }], timeoutMs: 500 }),
    });
    for (const id of ['usr_1', 'usr_2']) {
      await insertUser(t.db, { id, email: `${id}@example.com`, name: id, passwordHash: 'x' });
    }
    dns.set('public.example.com', 'A', ['93.184.216.34']);
    dns.set('internal.example.com', 'A', ['10.0.0.7']);
    dns.set('mixed.example.com', 'A', ['93.184.216.34']);
    dns.set('mixed.example.com', 'AAAA', ['::1']);
  });
  after(async () => {
    await dns.close();
    await t.close();
  });

  it('refuses literal and resolved internal addresses, naming why', async () => {
    assert.match(await refusal(create('usr_1', 'http://127.0.0.1:8080/')), /loopback/);
    assert.match(await refusal(create('usr_1', 'http://[::1]/')), /loopback/);
    assert.match(await refusal(create('usr_1', 'http://localhost/')), /loopback/);
    assert.match(await refusal(create('usr_1', 'http://169.254.169.254/latest/')), /metadata/);
    assert.match(await refusal(create('usr_1', 'https://internal.example.com/')), /10\.0\.0\.7 is a private/);
    assert.match(await refusal(create('usr_1', 'https://mixed.example.com/')), /::1 is a loopback/);
  });

  it('accepts public hosts and hosts that do not resolve yet; seals the secret for its row', async () => {
    const created = await create('usr_1', 'https://public.example.com/hook');
    assert.equal(created.warnings, undefined);
    // Standard base64 of 32 bytes (issue 20: the Standard Webhooks secret form).
    assert.match(created.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    const row = await findWebhook(t.db, 'usr_1', created.id);
    assert.ok(row);
    assert.ok(!row.secret_sealed.includes(created.secret));
    assert.equal(sealer.open(row.secret_sealed, secretContext(created.id)), created.secret);
    assert.throws(() => sealer.open(row.secret_sealed, secretContext('whk_other')));
    const unresolved = await create('usr_1', 'https://not-yet-published.example.com/hook');
    assert.match(unresolved.warnings?.[0] ?? '', /not-yet-published\.example\.com has no A or AAAA record/);
    const audit = await listAudit(t.db, { userId: 'usr_1', action: 'webhook.created', limit: 10 });
    assert.equal(audit.length, 2);
    assert.ok(!JSON.stringify(audit).includes('whsec_'));
  });

  it('checks a changed URL on PATCH too', async () => {
    const created = await create('usr_2', 'https://public.example.com/hook');
    const patch = updateWebhook({
      db: t.db,
      userId: 'usr_2',
      actor,
      checkDestination,
      id: created.id,
      input: { url: 'http://10.1.2.3/' },
    });
    assert.match(await refusal(patch), /private/);
  });

  it(`caps an account at ${MAX_WEBHOOKS_PER_ACCOUNT} endpoints`, async () => {
    await insertUser(t.db, { id: 'usr_3', email: 'usr_3@example.com', name: 'x', passwordHash: 'x' });
    for (let i = 0; i < MAX_WEBHOOKS_PER_ACCOUNT; i++) await create('usr_3', 'https://public.example.com/');
    await assert.rejects(create('usr_3', 'https://public.example.com/'), { code: 'WEBHOOK_LIMIT_REACHED' });
  });

  it('keeps the cap under concurrent creations (one turn per account on PostgreSQL, where a pool runs them at once)', async () => {
    await insertUser(t.db, { id: 'usr_4', email: 'usr_4@example.com', name: 'x', passwordHash: 'x' });
    const first = MAX_WEBHOOKS_PER_ACCOUNT - 5;
    for (let i = 0; i < first; i++) await create('usr_4', 'https://public.example.com/');
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, () => create('usr_4', 'https://public.example.com/')),
    );
    const refused = outcomes.filter((o) => o.status === 'rejected');
    for (const o of refused) assert.equal((o.reason as { code?: string }).code, 'WEBHOOK_LIMIT_REACHED');
    assert.equal(outcomes.length - refused.length, 5);
    assert.equal(await countWebhooks(t.db, 'usr_4'), MAX_WEBHOOKS_PER_ACCOUNT);
  });
});

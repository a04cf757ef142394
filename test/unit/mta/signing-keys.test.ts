import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { insertUser } from '../../../src/modules/accounts/accounts.repository';
import { systemActor } from '../../../src/modules/audit/audit.repository';
import type { DomainView } from '../../../src/modules/domains/domains.usecases';
import { createDomain } from '../../../src/modules/domains/domains.usecases';
import { createSigningKeys } from '../../../src/mta/signing-keys';
import { newId } from '../../../src/shared/ids';
import { createSealer } from '../../../src/shared/seal';
import type { TestDb } from '../../helpers/test-db';
import { createTestDb } from '../../helpers/test-db';

const SECRET = 'signing-keys-test-secret-0123456789abcdef';
const hosts = {
  mailHostname: 'mail.mailroom.net',
  mxHost: 'mail.mailroom.net',
  bounceHost: 'bounce.mailroom.net',
  spfIncludeHost: '_spf.mailroom.net',
};

describe('createSigningKeys (real database, keys sealed by the domains module)', () => {
  let t: TestDb;
  let userId: string;
  let domain: DomainView;

  async function insertEmail(domainId: string): Promise<string> {
    const id = newId('email');
    const now = new Date().toISOString();
    await t.db
      .insertInto('emails')
      .values({
        id,
        user_id: userId,
        domain_id: domainId,
        api_key_id: null,
        source: 'api',
        from_address: 'app@shop-keys.com',
        from_header: 'app@shop-keys.com',
        subject: 's',
        reply_to: null,
        headers: null,
        tags: null,
        metadata: null,
        html: null,
        text: 't',
        message_id: `<${id}@shop-keys.com>`,
        size_bytes: 1,
        status: 'processing',
        smtp_response: null,
        scheduled_at: null,
        created_at: now,
        updated_at: now,
        sent_at: null,
        delivered_at: null,
      })
      .execute();
    return id;
  }

  before(async () => {
    t = await createTestDb();
    userId = (
      await insertUser(t.db, { id: newId('usr'), email: 'k@example.com', name: 'K', passwordHash: 'x' })
    ).id;
    domain = await createDomain({
      db: t.db,
      userId,
      sealer: createSealer({ secretKey: SECRET }),
      hosts,
      actor: systemActor,
      input: { domain: 'shop-keys.com' },
    });
  });

  after(() => t.close());

  it('finds the sending domain of an email and unseals its key', async () => {
    const keys = createSigningKeys({ db: t.db, sealer: createSealer({ secretKey: SECRET }) });
    const found = await keys.lookup(await insertEmail(domain.id));
    assert.equal(found.kind, 'found');
    assert.ok(found.kind === 'found');
    assert.equal(found.key.domain, 'shop-keys.com');
    assert.equal(found.key.selector, domain.records.find((r) => r.purpose === 'dkim')?.host.split('.')[0]);
    assert.match(found.key.privateKeyPem, /^-----BEGIN PRIVATE KEY-----/);
  });

  it('an unknown email id is `unknown-email`', async () => {
    const keys = createSigningKeys({ db: t.db, sealer: createSealer({ secretKey: SECRET }) });
    assert.deepEqual(await keys.lookup(newId('email')), { kind: 'unknown-email' });
  });

  it('another SECRET_KEY, or a sealed key copied to another row, is `unavailable`, never a key', async () => {
    const emailId = await insertEmail(domain.id);
    const wrongSecret = createSigningKeys({ db: t.db, sealer: createSealer({ secretKey: 'x'.repeat(40) }) });
    const a = await wrongSecret.lookup(emailId);
    assert.equal(a.kind, 'unavailable');
    assert.ok(a.kind === 'unavailable');
    assert.match(a.reason, /SEAL_UNKNOWN_KEY/);

    const row = await t.db
      .selectFrom('domains')
      .selectAll()
      .where('id', '=', domain.id)
      .executeTakeFirstOrThrow();
    const copyId = newId('dom');
    await t.db
      .insertInto('domains')
      .values({ ...row, id: copyId, domain: 'copy-keys.com' })
      .execute();
    const keys = createSigningKeys({ db: t.db, sealer: createSealer({ secretKey: SECRET }) });
    const b = await keys.lookup(await insertEmail(copyId));
    assert.ok(b.kind === 'unavailable');
    assert.match(b.reason, /SEAL_TAMPERED/);
  });

  it('caches the unsealed key briefly, and drops it when the sealed value changes', async () => {
    let opened = 0;
    const real = createSealer({ secretKey: SECRET });
    const counting = {
      ...real,
      open: (sealed: string, context: string) => (opened++, real.open(sealed, context)),
    };
    let now = 1_000_000;
    const keys = createSigningKeys({ db: t.db, sealer: counting, cacheMs: 60_000, now: () => now });
    const emailId = await insertEmail(domain.id);
    await keys.lookup(emailId);
    await keys.lookup(emailId);
    assert.equal(opened, 1, 'second lookup from the cache');
    now += 60_001;
    await keys.lookup(emailId);
    assert.equal(opened, 2, 'expired');

    // A rotated key (same row, new sealed value) is used at once.
    const row = await t.db
      .selectFrom('domains')
      .selectAll()
      .where('id', '=', domain.id)
      .executeTakeFirstOrThrow();
    const resealed = real.seal(
      real.open(row.dkim_private_key_encrypted, `dkim:${domain.id}`),
      `dkim:${domain.id}`,
    );
    await t.db
      .updateTable('domains')
      .set({ dkim_private_key_encrypted: resealed })
      .where('id', '=', domain.id)
      .execute();
    await keys.lookup(emailId);
    assert.equal(opened, 3, 'a new sealed value is unsealed at once, cache or not');
  });
});

// Issue 28, item 4 (a)(b)(c): inbound authentication cannot be made to cost without bound.
// The worker's real inbound-processing handler, a real database built by the migrations, the
// real raw store and the fake DNS server (counting the questions it gets, never answering for a
// dead selector), with messages DKIM-signed by mailauth.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { dkimSign } from 'mailauth';
import { parseConfig } from '../../src/config';
import type { InboundIntakePayload } from '../../src/modules/inbound/intake-payload';
import { createInboundHandler } from '../../src/modules/inbound/inbound.job';
import { commitStagedRaws, rawStoreFor } from '../../src/modules/inbound/raw-store-of';
import { createDnsResolver } from '../../src/shared/dns-resolver';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import { captureLog } from '../helpers/capture-log';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import type { Account } from '../helpers/email-fixtures';
import { insertAccount } from '../helpers/email-fixtures';
import { sendRaw, setReceiving, waitForInbound } from '../helpers/inbound-mail';
import { handlerJob, jobContext } from '../helpers/job-context';
import type { TestDb } from '../helpers/test-db';
import { createTestDb } from '../helpers/test-db';
import { addVerifiedDomain } from '../helpers/verified-domain';

const SIGNER = 'signer.test';
const CLIENT_IP = '192.0.2.10';

function keyPair(): { privateKey: string; record: string } {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 1024 });
  const p = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    record: `v=DKIM1; k=rsa; p=${p}`,
  };
}

function message(subject: string): Buffer {
  return Buffer.from(
    `From: Alice <alice@${SIGNER}>\r\nTo: sales@inbox.example.com\r\nSubject: ${subject}\r\n` +
      `Message-ID: <${crypto.randomUUID()}@${SIGNER}>\r\nDate: Wed, 02 Dec 2026 14:00:00 +0000\r\n\r\nHello.\r\n`,
  );
}

/** `raw` with one DKIM-Signature per selector, the first selector's on top. */
async function signed(
  raw: Buffer,
  selectors: readonly string[],
  privateKey: string,
  signingDomain = SIGNER,
): Promise<Buffer> {
  const headers: string[] = [];
  for (const selector of selectors) {
    // mailauth's runtime takes signatureData[]; its .d.ts describes an older flat shape.
    const options = {
      canonicalization: 'relaxed/relaxed',
      signatureData: [{ signingDomain, selector, privateKey }],
    } as unknown as Parameters<typeof dkimSign>[1];
    headers.push((await dkimSign(raw, options)).signatures);
  }
  return Buffer.concat([Buffer.from(headers.join('')), raw]);
}

function keyQueries(dns: FakeDns, selector: string): number {
  const name = `${selector}._domainkey.${SIGNER}`;
  return dns.queries.filter((q) => q.name === name).length;
}

void describe('inbound authentication bounds (issue 28, item 4)', () => {
  let t: TestDb;
  let dns: FakeDns;
  let account: Account;
  let key: { privateKey: string; record: string };

  before(async () => {
    t = await createTestDb();
    dns = await startDnsServer();
    account = await insertAccount(t.db);
    key = keyPair();
    dns.set(SIGNER, 'TXT', [`v=spf1 ip4:${CLIENT_IP} -all`]);
  });
  after(async () => {
    await dns.close();
    await t.close();
  });

  function handler(options: { dnsTimeoutMs?: number; authBudgetMs?: number } = {}) {
    const config = {
      ...parseConfig({ DATA_DIR: t.dataDir, DATABASE_URL: t.url, DNS_SERVERS: dns.address }),
      secretKey: 'k'.repeat(32),
    };
    return createInboundHandler({
      db: t.db,
      config,
      resolver: createDnsResolver({
        servers: config.dnsServers,
        ...(options.dnsTimeoutMs === undefined ? {} : { timeoutMs: options.dnsTimeoutMs, tries: 1 }),
      }),
      authBudgetMs: options.authBudgetMs,
    });
  }

  /** Stores `raw` as the MX would and runs the job; resolves with the stored row and the job's time. */
  async function receive(
    run: ReturnType<typeof handler>,
    raw: Buffer,
    envelope: Partial<InboundIntakePayload> = {},
  ) {
    const store = rawStoreFor(t.db, t.dataDir);
    const staged = await store.put(raw);
    await t.db.transaction().execute((trx) => commitStagedRaws(trx, [staged]));
    const payload: InboundIntakePayload = {
      rawPath: staged.ref,
      sha256: staged.sha256,
      size: staged.size,
      mailFrom: `alice@${SIGNER}`,
      rcptTo: ['sales@inbox.example.com'],
      domainId: account.domainId,
      userId: account.userId,
      remoteIp: CLIENT_IP,
      helo: 'client.signer.test',
      receivedAt: new Date().toISOString(),
      ...envelope,
    };
    const started = Date.now();
    await run(handlerJob('inbound-processing', payload), jobContext(captureLog()));
    const ms = Date.now() - started;
    const row = await t.db
      .selectFrom('inbound_messages')
      .selectAll()
      .where('raw_path', '=', staged.ref)
      .executeTakeFirstOrThrow();
    return { row, ms, stored: await store.get(staged.ref) };
  }

  void it('(a) verifies at most 5 signatures: a valid 6th is not checked (policy), raw bytes untouched', async () => {
    const selectors = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8'];
    // Only the signatures past the limit have a key: verifying them would pass.
    for (const s of selectors.slice(5)) dns.set(`${s}._domainkey.${SIGNER}`, 'TXT', [key.record]);
    const raw = await signed(message('eight signatures'), selectors, key.privateKey);
    dns.queries.length = 0;
    const { row, stored } = await receive(handler(), raw);
    assert.deepEqual(
      selectors.map((s) => keyQueries(dns, s) > 0),
      [true, true, true, true, true, false, false, false],
      'keys looked up for the first five signatures only',
    );
    assert.equal(row.dkim_result, 'policy');
    assert.equal(row.authenticated, 0);
    assert.ok(stored?.equals(raw), 'the stored message keeps all eight signatures');
    assert.equal(row.spf_result, 'pass');
  });

  void it('(a) a valid signature among the first five still passes', async () => {
    dns.set(`b1._domainkey.${SIGNER}`, 'TXT', [key.record]);
    const raw = await signed(
      message('first passes'),
      ['b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7'],
      key.privateKey,
    );
    dns.queries.length = 0;
    const { row } = await receive(handler(), raw);
    assert.equal(row.dkim_result, 'pass');
    assert.equal(keyQueries(dns, 'b6') + keyQueries(dns, 'b7'), 0);
  });

  void it('(b) 130 messages with a dead selector cost one slow lookup; SERVFAIL and NXDOMAIN are kept too', async () => {
    dns.fail(`dead._domainkey.${SIGNER}`, 'TIMEOUT');
    dns.fail(`broken._domainkey.${SIGNER}`, 'SERVFAIL');
    const run = handler({ dnsTimeoutMs: 300 });
    dns.queries.length = 0;
    const results: (string | null)[] = [];
    // One after another, as a flood drains through the queue: no query is in flight to share.
    for (let i = 0; i < 130; i++) {
      const raw = await signed(message(`flood ${i}`), ['dead'], key.privateKey);
      results.push((await receive(run, raw)).row.dkim_result);
    }
    for (let i = 0; i < 10; i++) {
      const raw = await signed(message(`servfail ${i}`), ['broken'], key.privateKey);
      results.push((await receive(run, raw)).row.dkim_result);
      const gone = await signed(message(`nxdomain ${i}`), ['missing'], key.privateKey);
      results.push((await receive(run, gone)).row.dkim_result);
    }
    assert.equal(keyQueries(dns, 'dead'), 1, 'one query for the dead selector');
    assert.equal(keyQueries(dns, 'broken'), 1, 'one query for the SERVFAIL selector');
    assert.equal(keyQueries(dns, 'missing'), 1, 'one query for the missing selector');
    assert.deepEqual(new Set(results), new Set(['temperror', 'neutral']));
  });

  void it('(c) a budget per message: lookups that never answer end as temperror, the message is stored and announced', async () => {
    const silent = 'silent.test';
    dns.fail(silent, 'TIMEOUT');
    dns.fail(`_dmarc.${silent}`, 'TIMEOUT');
    dns.fail(`quiet._domainkey.${silent}`, 'TIMEOUT');
    const base = Buffer.from(
      `From: Bob <bob@${silent}>\r\nTo: sales@inbox.example.com\r\nSubject: budget\r\n\r\nHello.\r\n`,
    );
    const raw = await signed(base, ['quiet'], key.privateKey, silent);
    // The resolver's own timeouts (2 s, then 4 s per lookup) are left as they are.
    const run = handler({ authBudgetMs: 800 });
    const { row, ms } = await receive(run, raw, { mailFrom: `bob@${silent}`, helo: 'client.silent.test' });
    // Without the budget: three lookups of 6 s each, one after the other.
    assert.ok(ms < 4_000, `processed in ${ms} ms`);
    assert.deepEqual(
      [row.spf_result, row.dkim_result, row.dmarc_result],
      ['temperror', 'temperror', 'temperror'],
    );
    const outbox = await t.db.selectFrom('outbox').select('event').where('email_id', '=', row.id).execute();
    assert.deepEqual(
      outbox.map((o) => o.event),
      ['email.received'],
    );
  });
});

// (a) at the public MX: the real appliance (Haraka with our plugins), real SMTP clients.
void describe('header-section bounds at end of DATA on the public MX (issue 28, item 4)', () => {
  let dns: FakeDns;
  let app: Appliance;
  let token: string;
  const to = 'sales@inbox.bounds.example.com';

  before(async () => {
    dns = await startDnsServer();
    app = await startAppliance({ env: { DNS_SERVERS: dns.address } });
    ({ token } = await app.api.register());
    const { id } = await addVerifiedDomain(app, dns, token, 'bounds.example.com');
    await setReceiving(app, token, id, { receiveEnabled: true });
    await new Promise((r) => setTimeout(r, 2_500)); // the MX's view of domains refreshes every 2 s
  });
  after(async () => {
    await app.stop();
    await dns.close();
  });

  /** A message whose header section has `fields` extra fields made by `field(i)`. */
  function withFields(subject: string, count: number, field: (i: number) => string): Buffer {
    const extra = Array.from({ length: count }, (_, i) => field(i)).join('');
    return Buffer.concat([Buffer.from(extra), message(subject)]);
  }
  const fakeSignature = (i: number): string =>
    `DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=${SIGNER}; s=sel${i}; h=from:to:subject;\r\n` +
    ` bh=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=; b=${'A'.repeat(24)}\r\n`;

  void it('refuses 5,000 DKIM-Signature fields (750 KB), 51 of them and 1,200 fields; accepts 10 signatures', async () => {
    const flood = withFields('flood', 5_000, fakeSignature);
    assert.ok(flood.length > 700_000, `${flood.length} bytes`);
    await assert.rejects(
      sendRaw(app, flood, { from: `alice@${SIGNER}`, to: [to] }),
      /554 5\.6\.0 Message refused: more than 1000 header fields/,
    );
    const over = withFields('fifty-one', 51, fakeSignature);
    await assert.rejects(
      sendRaw(app, over, { from: `alice@${SIGNER}`, to: [to] }),
      /554 5\.6\.0 .*51 DKIM-Signature/,
    );
    const fields = withFields('many fields', 1_200, (i) => `X-Filler-${i}: ${i}\r\n`);
    await assert.rejects(
      sendRaw(app, fields, { from: `alice@${SIGNER}`, to: [to] }),
      /554 5\.6\.0 .*header fields/,
    );

    const fine = withFields('ten signatures', 10, fakeSignature);
    assert.match((await sendRaw(app, fine, { from: `alice@${SIGNER}`, to: [to] })).response, /^250 /);
    const stored = await waitForInbound(app, token, (m) => m.subject === 'ten signatures');
    assert.equal(stored.dkimResult, 'policy', 'five checked (none verifies), five not checked');
    const all = await app.api.get<{ data: { subject: string | null }[] }>('/v1/inbound?limit=100', { token });
    assert.deepEqual(
      all.body.data.map((m) => m.subject),
      ['ten signatures'],
      'nothing of the refused messages was stored',
    );
  });
});

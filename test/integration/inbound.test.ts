// Inbound mail end to end: real SMTP (nodemailer, STARTTLS) into the real Haraka of the whole
// appliance, the worker's processing (mailparser, mailauth against the fake DNS), the API.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dkimSign } from 'mailauth';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import { openApplianceDb } from '../helpers/open-database';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { addVerifiedDomain } from '../helpers/verified-domain';
import type { InboundSummary } from '../helpers/inbound-mail';
import {
  compose,
  fetchBytes,
  publishDkimKey,
  sendRaw,
  setReceiving,
  waitForInbound,
} from '../helpers/inbound-mail';

const HTML = '<p>Hello</p><script>alert("xss")</script><img src="cid:logo@x">';

describe('inbound mail through the real MX', () => {
  let dns: FakeDns;
  let app: Appliance;
  let token: string;
  let domainId: string;
  let other: { token: string };

  before(async () => {
    dns = await startDnsServer();
    app = await startAppliance({ env: { DNS_SERVERS: dns.address } });
    ({ token } = await app.api.register());
    domainId = (await addVerifiedDomain(app, dns, token, 'receiver.example.com')).id;
    await setReceiving(app, token, domainId, { receiveEnabled: true });
    other = await app.api.register();
    // The sending side: SPF for two envelope domains, DKIM and DMARC for the signer.
    dns.set('signer.example.org', 'TXT', ['v=spf1 ip4:127.0.0.1 -all']);
    dns.set('_dmarc.signer.example.org', 'TXT', ['v=DMARC1; p=reject']);
    dns.set('spf-fail.example.org', 'TXT', ['v=spf1 -all']);
    await new Promise((r) => setTimeout(r, 2_500)); // the MX's view of domains refreshes every 2 s
  });

  after(async () => {
    await app.stop();
    await dns.close();
  });

  it('stores a message with attachments and a script byte-exact; raw returns what the client sent', async () => {
    const raw = await compose({
      from: 'Alice <alice@spf-fail.example.org>',
      to: 'support@inbox.receiver.example.com',
      subject: 'With attachments',
      text: 'plain body',
      html: HTML,
      attachments: [
        { filename: '../../etc/passwd', content: 'root:x:0:0' },
        { filename: 'page.html', content: '<script>alert(1)</script>', contentType: 'text/html' },
        { filename: 'logo.png', content: Buffer.from([0x89, 0x50, 0x4e, 0x47]), cid: 'logo@x' },
      ],
    });
    const info = await sendRaw(app, raw, {
      from: 'alice@spf-fail.example.org',
      to: ['support@inbox.receiver.example.com'],
    });
    assert.match(info.response, /^250 /);
    const summary = await waitForInbound(app, token, (m) => m.subject === 'With attachments');
    assert.equal(summary.read, false);
    assert.equal(summary.attachmentCount, 3);
    assert.equal(summary.spfResult, 'fail');
    assert.equal(summary.authenticated, false);

    const got = await fetchBytes(app, token, `/v1/inbound/${summary.id}/raw`);
    assert.equal(got.status, 200);
    assert.match(got.headers.get('content-type') ?? '', /^message\/rfc822/);
    assert.equal(
      got.bytes.toString('latin1'),
      raw.toString('latin1'),
      'raw is exactly the bytes the client sent',
    );
    // Where the MX put the bytes (issue 23 item 3): a file on SQLite; on PostgreSQL a row any
    // node reads, and nothing under DATA_DIR/inbound.
    const where = await rawLocation(app, summary.id);
    if (app.databaseUrl.startsWith('postgres')) {
      assert.match(where.rawPath, /^db:raw_/);
      assert.equal(where.rows, 1);
      assert.deepEqual(where.files, []);
    } else {
      assert.deepEqual(where.files, [where.rawPath]);
      assert.equal(where.rows, 0);
    }

    const full = await app.api.get<{
      html: string;
      text: string;
      read: boolean;
      attachments: { id: string; filename: string | null; contentType: string }[];
    }>(`/v1/inbound/${summary.id}`, { token });
    assert.equal(full.status, 200);
    assert.equal(full.body.html, HTML, 'html exactly as received, script included');
    assert.equal(full.body.text.trim(), 'plain body');
    assert.equal(full.body.read, true);
    assert.deepEqual(
      full.body.attachments.map((a) => a.filename),
      ['logo.png', '....etcpasswd', 'page.html'],
    );
    const html = full.body.attachments[2]!;
    const file = await fetchBytes(app, token, `/v1/inbound/${summary.id}/attachments/${html.id}`);
    assert.equal(file.status, 200);
    assert.equal(file.bytes.toString(), '<script>alert(1)</script>');
    assert.equal(file.headers.get('content-type'), 'application/octet-stream');
    assert.equal(file.headers.get('x-content-type-options'), 'nosniff');
    assert.match(file.headers.get('content-disposition') ?? '', /^attachment; filename="page\.html"/);

    // Another account sees none of it.
    assert.equal((await app.api.get(`/v1/inbound/${summary.id}`, { token: other.token })).status, 404);
    const foreign = await fetchBytes(app, other.token, `/v1/inbound/${summary.id}/attachments/${html.id}`);
    assert.equal(foreign.status, 404);

    // PATCH read=false, unread filter, search, DELETE.
    assert.equal(
      (await app.api.patch(`/v1/inbound/${summary.id}`, { token, body: { read: false } })).status,
      200,
    );
    const unread = await app.api.get<{ data: InboundSummary[] }>(
      '/v1/inbound?unread=true&search=attachments',
      { token },
    );
    assert.ok(unread.body.data.some((m) => m.id === summary.id));
    assert.equal((await app.api.delete(`/v1/inbound/${summary.id}`, { token })).status, 200);
    assert.equal((await fetchBytes(app, token, `/v1/inbound/${summary.id}/raw`)).status, 404);
    const gone = await rawLocation(app, summary.id);
    assert.deepEqual([gone.rows, gone.files], [0, []], 'the raw copy went with its message');
  });

  it('stores at most 25 of 26 attachments', async () => {
    const attachments = Array.from({ length: 26 }, (_, i) => ({
      filename: `f${i}.txt`,
      content: `file ${i}`,
    }));
    const raw = await compose({
      from: 'a@spf-fail.example.org',
      to: 'x@inbox.receiver.example.com',
      subject: '26',
      text: 't',
      attachments,
    });
    await sendRaw(app, raw, { from: 'a@spf-fail.example.org', to: ['x@inbox.receiver.example.com'] });
    const m = await waitForInbound(app, token, (s) => s.subject === '26');
    assert.equal(m.attachmentCount, 25);
    const full = await app.api.get<{ attachmentsDropped: number }>(`/v1/inbound/${m.id}`, { token });
    assert.equal(full.body.attachmentsDropped, 1);
  });

  it('SPF, DKIM and DMARC pass for a message signed by the test with a key in the fake DNS', async () => {
    const privateKey = publishDkimKey(dns, 'signer.example.org', 's1');
    const unsigned = await compose({
      from: 'bob@signer.example.org',
      to: 'y@inbox.receiver.example.com',
      subject: 'Signed',
      text: 'hi',
    });
    // mailauth's runtime takes signatureData[]; its .d.ts describes an older flat shape.
    const options = {
      canonicalization: 'relaxed/relaxed',
      signatureData: [{ signingDomain: 'signer.example.org', selector: 's1', privateKey }],
    } as unknown as Parameters<typeof dkimSign>[1];
    const { signatures } = await dkimSign(unsigned, options);
    const raw = Buffer.concat([Buffer.from(signatures), unsigned]);
    await sendRaw(app, raw, { from: 'bob@signer.example.org', to: ['y@inbox.receiver.example.com'] });
    const m = await waitForInbound(app, token, (s) => s.subject === 'Signed');
    assert.deepEqual(
      [m.spfResult, m.dkimResult, m.dmarcResult, m.authenticated],
      ['pass', 'pass', 'pass', true],
    );
    assert.ok((await fetchBytes(app, token, `/v1/inbound/${m.id}/raw`)).bytes.equals(raw));
  });

  it('records an email.received outbox row with the summary', async () => {
    const m = await waitForInbound(app, token, (s) => s.subject === 'Signed');
    const res = await app.api.get<{ data: InboundSummary[] }>(`/v1/inbound?domainId=${domainId}`, { token });
    assert.ok(res.body.data.some((x) => x.id === m.id));
    assert.ok(app.lines.some((l) => l.includes('"inbound_received"') && l.includes(m.id)));
  });
});

/** The message's raw_path, the raw_messages rows and the files under DATA_DIR/inbound. */
async function rawLocation(
  app: Appliance,
  inboundId: string,
): Promise<{ rawPath: string; rows: number; files: string[] }> {
  const db = openApplianceDb(app);
  try {
    const row = await db
      .selectFrom('inbound_messages')
      .select('raw_path')
      .where('id', '=', inboundId)
      .executeTakeFirst();
    const rows = await db.selectFrom('raw_messages').select('id').execute();
    const root = path.join(app.dataDir, 'inbound');
    const files = fs.existsSync(root)
      ? fs
          .readdirSync(root)
          .flatMap((day) => fs.readdirSync(path.join(root, day)).map((f) => path.join(root, day, f)))
      : [];
    return { rawPath: row?.raw_path ?? '', rows: rows.length, files };
  } finally {
    await db.destroy();
  }
}

// A message the MX answered 250 for is never silently dropped: mail that cannot be parsed
// (more MIME parts than the parse bounds, nesting too deep, a header block too large) goes
// through the real public MX of the whole appliance (Haraka with our plugins, the worker,
// the API) and ends as an inbound message marked unparsed, with its reason, its raw bytes
// downloadable and an email.received webhook that carries the flag.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { fetchBytes, sendRaw, setReceiving, waitForInbound } from '../helpers/inbound-mail';
import { addVerifiedDomain } from '../helpers/verified-domain';
import { waitUntil } from '../helpers/wait-until';
import type { Receiver } from '../helpers/webhook-receiver';
import { startReceiver } from '../helpers/webhook-receiver';

const TO = 'support@inbox.unparsed.example.com';
const FROM = 'sender@example.org';

/** A multipart/mixed message of `parts` tiny text parts. */
function manyParts(subject: string, parts: number): Buffer {
  const b = 'b-many-parts';
  const body = Array.from(
    { length: parts },
    (_, i) => `--${b}\r\nContent-Type: text/plain\r\n\r\npart ${i}\r\n`,
  ).join('');
  return Buffer.from(
    `From: ${FROM}\r\nTo: ${TO}\r\nSubject: ${subject}\r\nMIME-Version: 1.0\r\n` +
      `Content-Type: multipart/mixed; boundary="${b}"\r\n\r\n${body}--${b}--\r\n`,
  );
}

/** `depth` multiparts, each the only part of the one around it. */
function deeplyNested(subject: string, depth: number): Buffer {
  let inner = 'Content-Type: text/plain\r\n\r\nthe innermost part\r\n';
  for (let level = depth; level > 0; level--) {
    const b = `b-level-${level}`;
    inner = `Content-Type: multipart/mixed; boundary="${b}"\r\n\r\n--${b}\r\n${inner}--${b}--\r\n`;
  }
  return Buffer.from(`From: ${FROM}\r\nTo: ${TO}\r\nSubject: ${subject}\r\nMIME-Version: 1.0\r\n${inner}`);
}

interface InboundDetail {
  id: string;
  unparsed: boolean;
  unparsedReason: string | null;
  mailFrom: string;
  rcptTo: string[];
  subject: string | null;
  size: number;
  spfResult: string | null;
}

describe('inbound mail that cannot be parsed is stored unparsed, never dropped', () => {
  let dns: FakeDns;
  let app: Appliance;
  let receiver: Receiver;
  let token: string;
  let domainId: string;

  before(async () => {
    dns = await startDnsServer();
    receiver = await startReceiver();
    app = await startAppliance({ env: { DNS_SERVERS: dns.address, WEBHOOK_ALLOW_PRIVATE: 'true' } });
    ({ token } = await app.api.register());
    domainId = (await addVerifiedDomain(app, dns, token, 'unparsed.example.com')).id;
    await setReceiving(app, token, domainId, { receiveEnabled: true });
    const hook = await app.api.post('/v1/webhooks', {
      token,
      body: { url: receiver.url, events: ['email.received'] },
    });
    assert.equal(hook.status, 201, hook.text);
    const resend = await app.api.post('/v1/webhooks', {
      token,
      body: { url: `${receiver.url}/resend`, events: ['email.received'], payloadFormat: 'resend' },
    });
    assert.equal(resend.status, 201, resend.text);
    await new Promise((r) => setTimeout(r, 2_500)); // the MX's view of domains refreshes every 2 s
  });

  after(async () => {
    await app.stop();
    await receiver.close();
    await dns.close();
  });

  /** The email.received delivery naming `inboundId` (webhooks are delivered asynchronously). */
  async function webhookFor(inboundId: string, path = '/hook'): Promise<{ body: string }> {
    const find = () => receiver.requests.find((r) => r.url === path && r.body.includes(inboundId));
    await waitUntil('the email.received webhook', () => find() !== undefined, 60_000);
    return find()!;
  }

  /** Sends `raw`, waits for its unparsed row and checks everything the account can see of it. */
  async function expectUnparsed(raw: Buffer, reason: RegExp): Promise<void> {
    const before = new Set(
      (await app.api.get<{ data: { id: string }[] }>('/v1/inbound?limit=100', { token })).body.data.map(
        (m) => m.id,
      ),
    );
    const info = await sendRaw(app, raw, { from: FROM, to: [TO] });
    assert.match(info.response, /^250 /, 'the MX accepted it');
    const summary = await waitForInbound(app, token, (m) => !before.has(m.id), 60_000);
    assert.equal(summary.unparsed, true, 'the list marks it unparsed');
    assert.match(summary.unparsedReason ?? '', reason);

    const full = await app.api.get<InboundDetail>(`/v1/inbound/${summary.id}`, { token });
    assert.equal(full.status, 200);
    assert.equal(full.body.unparsed, true);
    assert.match(full.body.unparsedReason ?? '', reason);
    assert.equal(full.body.mailFrom, FROM, 'the envelope is kept');
    assert.deepEqual(full.body.rcptTo, [TO]);
    assert.equal(full.body.size, raw.length);
    assert.equal(full.body.subject, null, 'nothing parsed is claimed');
    assert.equal(full.body.spfResult, null, 'no check ran');

    const got = await fetchBytes(app, token, `/v1/inbound/${summary.id}/raw`);
    assert.equal(got.status, 200);
    assert.match(got.headers.get('content-type') ?? '', /^message\/rfc822/);
    assert.ok(got.bytes.equals(raw), 'the raw bytes are exactly what the client sent');

    const hook = await webhookFor(summary.id);
    const payload = JSON.parse(hook.body) as Record<string, unknown>;
    assert.equal(payload.event, 'email.received');
    assert.equal(payload.inboundId, summary.id);
    assert.equal(payload.unparsed, true);
    assert.match(String(payload.unparsedReason), reason);
    assert.equal(payload.from, FROM);
    assert.deepEqual(payload.to, [TO]);
    // The Resend-format body says so too, in its own field names.
    const resend = JSON.parse((await webhookFor(summary.id, '/hook/resend')).body) as {
      type: string;
      data: Record<string, unknown>;
    };
    assert.equal(resend.type, 'email.received');
    assert.equal(resend.data.unparsed, true);
    assert.match(String(resend.data.unparsed_reason), reason);

    assert.ok(
      app.lines.some((l) => l.includes('"inbound_unparsed"') && l.includes(summary.id)),
      'the worker logged it',
    );
    assert.ok(!app.lines.some((l) => l.includes('"job_dead"')), 'no job ended dead');
  }

  it('more than 1,000 MIME parts: accepted, stored unparsed with its raw bytes, announced', async () => {
    await expectUnparsed(manyParts('Many parts', 1_100), /more than 1000 MIME parts/);
  });

  it('MIME nested deeper than 50 levels: stored unparsed', async () => {
    await expectUnparsed(deeplyNested('Deep', 60), /nested deeper than 50 levels/);
  });

  it('a header block larger than 256 KiB: stored unparsed', async () => {
    // Folded lines: each physical line is short, the field itself is 300 KB.
    const folded = Array.from({ length: 4_000 }, () => ` ${'x'.repeat(74)}`).join('\r\n');
    const raw = Buffer.from(
      `From: ${FROM}\r\nTo: ${TO}\r\nSubject: big header\r\nX-Big:${folded}\r\n\r\nbody\r\n`,
    );
    await expectUnparsed(raw, /header block larger than 262144 bytes/);
  });

  it('more than 1,000 header fields in one header block: stored unparsed', async () => {
    // In a MIME part's header block: the MX itself refuses a message header section that
    // large at DATA (554), so past the 250 only a part's block can carry that many.
    const fields = Array.from({ length: 1_100 }, (_, i) => `X-Field-${i}: ${i}\r\n`).join('');
    const raw = Buffer.from(
      `From: ${FROM}\r\nTo: ${TO}\r\nSubject: many fields\r\nMIME-Version: 1.0\r\n` +
        `Content-Type: multipart/mixed; boundary="b"\r\n\r\n` +
        `--b\r\nContent-Type: text/plain\r\n${fields}\r\nbody\r\n--b--\r\n`,
    );
    await expectUnparsed(raw, /more than 1000 header fields/);
  });

  it('a message within the bounds is parsed as before and says so', async () => {
    const raw = manyParts('Fifty parts', 50);
    const info = await sendRaw(app, raw, { from: FROM, to: [TO] });
    assert.match(info.response, /^250 /);
    const summary = await waitForInbound(app, token, (m) => m.subject === 'Fifty parts');
    assert.equal(summary.unparsed, false);
    assert.equal(summary.unparsedReason, null);
    const hook = await webhookFor(summary.id);
    assert.equal((JSON.parse(hook.body) as { unparsed: unknown }).unparsed, false);
    const resend = JSON.parse((await webhookFor(summary.id, '/hook/resend')).body) as { data: object };
    assert.ok(!('unparsed' in resend.data), "Resend's shape is unchanged for a parsed message");
  });
});

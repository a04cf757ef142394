// Previews and raw downloads for the dashboard (issue 19 item 3): a hostile HTML body is served
// under its own CSP (sandbox, nothing remote unless asked), the text part as text/plain, the
// raw message as delivery builds it; every one scoped to the account.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../src/db/connect';
import { openApplianceDb } from '../helpers/open-database';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import type { FixtureAccount } from '../helpers/email-fixtures';
import { inboundMessageRow, insertEmail } from '../helpers/email-fixtures';

const HOSTILE =
  '<p>Hi</p><script>fetch("/v1/api-keys")</script><img src="https://tracker.example/p.gif">' +
  '<form action="https://evil.example/"><input name="password"></form>';

function directives(csp: string | null): Map<string, string> {
  return new Map(
    (csp ?? '').split(';').map((d) => {
      const [name = '', ...values] = d.trim().split(/\s+/);
      return [name, values.join(' ')];
    }),
  );
}

describe('message previews and raw downloads', () => {
  let app: Appliance;
  let db: Db;
  let token: string;
  let other: string;
  let account: FixtureAccount;
  let htmlId: string;
  let textOnlyId: string;
  let inboundId: string;

  before(async () => {
    app = await startAppliance({ processes: ['api'] });
    db = openApplianceDb(app);
    const user = await app.api.register();
    token = user.token;
    other = (await app.api.register()).token;
    const domain = await app.api.post<{ id: string }>('/v1/domains', {
      token,
      body: { domain: 'preview.example.com' },
    });
    account = { userId: user.userId, domainId: domain.body.id, domain: 'preview.example.com' };
    htmlId = await insertEmail(db, account, { html: HOSTILE, text: 'Hi <there>', subject: 'Preview me' });
    textOnlyId = await insertEmail(db, account, { html: null, text: 'only text' });
    const inbound = inboundMessageRow({
      user_id: user.userId,
      received_at: new Date().toISOString(),
      html: HOSTILE,
      text: 'inbound text',
    });
    inboundId = inbound.id;
    await db.insertInto('inbound_messages').values(inbound).execute();
  });
  after(async () => {
    await db.destroy();
    await app.stop();
  });

  const fetchAs = (p: string, as = token) =>
    fetch(`${app.baseUrl}${p}`, { headers: { authorization: `Bearer ${as}` } });

  for (const [label, base] of [
    ['sent', () => `/v1/emails/${htmlId}`],
    ['inbound', () => `/v1/inbound/${inboundId}`],
  ] as const) {
    it(`${label}: html under a sandboxing CSP that blocks scripts, forms and remote loads`, async () => {
      const res = await fetchAs(`${base()}/preview?part=html`);
      assert.equal(res.status, 200);
      assert.equal(await res.text(), HOSTILE);
      assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(res.headers.get('content-disposition'), 'inline');
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      const csp = directives(res.headers.get('content-security-policy'));
      assert.equal(csp.get('default-src'), "'none'");
      assert.equal(csp.get('style-src'), "'unsafe-inline'");
      assert.equal(csp.get('img-src'), 'data: cid:');
      assert.equal(csp.get('sandbox'), '', 'sandbox with no allow-* tokens');
      assert.equal(csp.get('form-action'), "'none'");
      assert.ok(!csp.has('script-src'));
    });

    it(`${label}: remote images only with remoteImages=1; the text part as text/plain`, async () => {
      const remote = await fetchAs(`${base()}/preview?remoteImages=1`);
      const csp = directives(remote.headers.get('content-security-policy'));
      assert.equal(csp.get('img-src'), 'data: cid: https: http:');
      assert.equal(csp.get('default-src'), "'none'");
      assert.equal(csp.get('sandbox'), '');
      const text = await fetchAs(`${base()}/preview?part=text`);
      assert.equal(text.headers.get('content-type'), 'text/plain; charset=utf-8');
      assert.match(await text.text(), /text|Hi <there>/);
    });

    it(`${label}: another account's message is 404; a bad part is 422`, async () => {
      const res = await fetchAs(`${base()}/preview`, other);
      assert.equal(res.status, 404);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'EMAIL_NOT_FOUND');
      assert.equal((await fetchAs(`${base()}/preview?part=js`)).status, 422);
      assert.equal((await fetchAs(`${base()}/preview?remoteImages=yes`)).status, 422);
    });
  }

  it('a part the message does not have is 404 EMAIL_PART_NOT_FOUND', async () => {
    const res = await fetchAs(`/v1/emails/${textOnlyId}/preview?part=html`);
    assert.equal(res.status, 404);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'EMAIL_PART_NOT_FOUND');
    assert.equal((await fetchAs(`/v1/emails/${textOnlyId}/preview?part=text`)).status, 200);
  });

  it('raw: the message as delivery builds it, as a message/rfc822 download', async () => {
    const res = await fetchAs(`/v1/emails/${htmlId}/raw`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'message/rfc822');
    assert.equal(res.headers.get('content-disposition'), `attachment; filename="${htmlId}.eml"`);
    const raw = await res.text();
    assert.match(raw, /^Subject: Preview me\r$/m);
    assert.match(raw, new RegExp(`^Message-ID: <${htmlId}@preview\\.example\\.com>\\r$`, 'mi'));
    assert.match(raw, /^Content-Type: multipart\/alternative/m);
    assert.equal((await fetchAs(`/v1/emails/${htmlId}/raw`, other)).status, 404);
  });

  it('raw: an SMTP submission is answered byte for byte as stored', async () => {
    const id = await insertEmail(db, account, {});
    await db.updateTable('emails').set({ source: 'smtp' }).where('id', '=', id).execute();
    const stored = Buffer.from('From: a@preview.example.com\r\nSubject: as submitted\r\n\r\nbody\r\n');
    await db.insertInto('email_raw_messages').values({ email_id: id, content: stored }).execute();
    const res = await fetchAs(`/v1/emails/${id}/raw`);
    assert.equal(res.status, 200);
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), stored);
  });
});

import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../src/db/connect';
import { openApplianceDb } from '../helpers/open-database';
import { brandingForSend } from '../../src/modules/branding/branding.usecases';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import { runCtl } from '../helpers/ctl';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

interface Branding {
  logo: { url: string; contentType: string; size: number; updatedAt: string } | null;
  footer: { html: string | null; text: string | null };
}

describe('branding: logo and footer', () => {
  let app: Appliance;
  let db: Db;

  before(async () => {
    app = await startAppliance({ processes: ['api'], env: { BASE_URL: 'https://mail.example.com' } });
    db = openApplianceDb(app);
  });
  after(async () => {
    await db.destroy();
    await app.stop();
  });

  const upload = (token: string, bytes: Buffer, contentType?: string) =>
    fetch(`${app.baseUrl}/v1/branding/logo`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, ...(contentType ? { 'content-type': contentType } : {}) },
      body: bytes,
    });

  const publicLogo = (userId: string, headers: Record<string, string> = {}) =>
    fetch(`${app.baseUrl}/public/branding/${userId}/logo`, { headers });

  it('uploads a PNG and serves it publicly, without a token, cacheable and typed', async () => {
    const { apiKey, userId } = await app.api.registerWithKey();
    const empty = await app.api.get<Branding>('/v1/branding', { token: apiKey });
    assert.deepEqual(empty.body, { logo: null, footer: { html: null, text: null } });
    assert.equal((await publicLogo(userId)).status, 404);

    const res = await upload(apiKey, PNG, 'image/png');
    assert.equal(res.status, 200);
    const view = (await res.json()) as Branding;
    assert.equal(view.logo?.url, `https://mail.example.com/public/branding/${userId}/logo`);
    assert.equal(view.logo?.contentType, 'image/png');
    assert.equal(view.logo?.size, PNG.length);

    const got = await publicLogo(userId);
    assert.equal(got.status, 200);
    assert.equal(got.headers.get('content-type'), 'image/png');
    assert.equal(got.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(got.headers.get('cache-control'), 'public, max-age=3600');
    assert.match(got.headers.get('content-security-policy') ?? '', /default-src 'none'.*sandbox/);
    assert.equal(got.headers.get('content-disposition'), 'inline; filename="logo.png"');
    const etag = got.headers.get('etag');
    assert.equal(etag, `"${crypto.createHash('sha256').update(PNG).digest('hex')}"`);
    assert.deepEqual(Buffer.from(await got.arrayBuffer()), PNG);
    // fetch adds `Cache-Control: no-cache` to a conditional request unless told otherwise.
    const again = await publicLogo(userId, { 'if-none-match': etag ?? '', 'cache-control': 'max-age=0' });
    assert.equal(again.status, 304);

    const [entry] = (
      await runCtl(app.env, [
        'audit',
        'list',
        '--json',
        '--account',
        userId,
        '--action',
        'branding.logo_uploaded',
      ])
    ).stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { actorType: string; details: unknown });
    assert.deepEqual(
      [entry?.actorType, entry?.details],
      ['api_key', { contentType: 'image/png', size: PNG.length }],
    );
  });

  it('serves SVG only as an attachment under a sandboxing CSP', async () => {
    const { apiKey, userId } = await app.api.registerWithKey();
    assert.equal((await upload(apiKey, SVG, 'image/svg+xml')).status, 200);
    const got = await publicLogo(userId);
    assert.equal(got.status, 200);
    assert.equal(got.headers.get('content-type'), 'image/svg+xml');
    assert.equal(got.headers.get('content-disposition'), 'attachment; filename="logo.svg"');
    assert.match(got.headers.get('content-security-policy') ?? '', /sandbox/);
  });

  it('refuses what is not a PNG, JPEG or SVG, a mislabelled one, and one over 512 KiB', async () => {
    const { apiKey } = await app.api.registerWithKey();
    const cases: [Buffer, string | undefined, number, string][] = [
      [Buffer.from('GIF89a......'), 'image/gif', 422, 'INVALID_LOGO'],
      [Buffer.from('<html><svg/></html>'), 'image/svg+xml', 422, 'INVALID_LOGO'],
      [PNG, 'image/jpeg', 422, 'INVALID_LOGO'],
      [Buffer.alloc(0), 'image/png', 422, 'INVALID_LOGO'],
      [Buffer.concat([PNG, Buffer.alloc(512 * 1024)]), 'image/png', 413, 'LOGO_TOO_LARGE'],
    ];
    for (const [bytes, type, status, code] of cases) {
      const res = await upload(apiKey, bytes, type);
      assert.equal(res.status, status, `${type} ${bytes.length}`);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, code);
    }
    // A generic type is fine: the bytes decide.
    assert.equal((await upload(apiKey, PNG, 'application/octet-stream')).status, 200);
  });

  it('deletes the logo; the public URL then 404s, as it does for a suspended account', async () => {
    const { apiKey, userId } = await app.api.registerWithKey();
    assert.equal((await upload(apiKey, PNG)).status, 200);
    const suspend = await app.api.post(`/internal/accounts/${userId}/suspend`, {
      headers: { 'x-internal-token': app.internalToken },
      body: { reason: 'test' },
    });
    assert.equal(suspend.status, 200);
    assert.equal((await publicLogo(userId)).status, 404);
    await app.api.post(`/internal/accounts/${userId}/reinstate`, {
      headers: { 'x-internal-token': app.internalToken },
    });
    assert.equal((await publicLogo(userId)).status, 200);

    const del = await app.api.delete<Branding>('/v1/branding/logo', { token: apiKey });
    assert.equal(del.status, 200);
    assert.equal(del.body.logo, null);
    assert.equal((await publicLogo(userId)).status, 404);
    const twice = await app.api.delete<{ error: { code: string } }>('/v1/branding/logo', { token: apiKey });
    assert.equal(twice.status, 404);
    assert.equal(twice.body.error.code, 'LOGO_NOT_FOUND');
    assert.equal((await publicLogo('usr_nope')).status, 404);
  });

  it('sets a footer whose {{logo_url}} resolves with a logo and disappears without one', async () => {
    const { apiKey, userId } = await app.api.registerWithKey();
    const footer = {
      html: '<p><img src="{{logo_url}}" alt="Acme" height="32"> Acme Ltd</p>',
      text: 'Acme Ltd',
    };
    const set = await app.api.request<Branding>('PUT', '/v1/branding/footer', {
      token: apiKey,
      body: footer,
    });
    assert.equal(set.status, 200, set.text);
    assert.deepEqual(set.body.footer, footer);

    const deps = { db, baseUrl: 'https://mail.example.com', userId };
    assert.deepEqual(await brandingForSend(deps), { html: '<p> Acme Ltd</p>', text: 'Acme Ltd' });
    assert.equal((await upload(apiKey, PNG)).status, 200);
    assert.deepEqual(await brandingForSend(deps), {
      html: `<p><img src="https://mail.example.com/public/branding/${userId}/logo" alt="Acme" height="32"> Acme Ltd</p>`,
      text: 'Acme Ltd',
    });

    const bad = await app.api.request<{ error: { code: string } }>('PUT', '/v1/branding/footer', {
      token: apiKey,
      body: { html: 'a\u0000b' },
    });
    assert.equal(bad.status, 422);
    const cleared = await app.api.request<Branding>('PUT', '/v1/branding/footer', {
      token: apiKey,
      body: {},
    });
    assert.deepEqual(cleared.body.footer, { html: null, text: null });
    assert.deepEqual(await brandingForSend(deps), { html: null, text: null });
  });

  it('needs a token for everything but the public logo', async () => {
    for (const [method, p] of [
      ['GET', '/v1/branding'],
      ['PUT', '/v1/branding/logo'],
      ['DELETE', '/v1/branding/logo'],
      ['PUT', '/v1/branding/footer'],
    ] as const) {
      assert.equal((await app.api.request(method, p)).status, 401, `${method} ${p}`);
    }
  });
});

// Issues 19 and 30: the dashboard served by the api under `/app/`, under its strict CSP, chosen
// by the path alone: it never answers for an API path, whatever the request's headers.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Appliance } from '../helpers/appliance';
import { REPO_ROOT, startAppliance } from '../helpers/appliance';

const DIST = path.join(REPO_ROOT, 'web', 'dist');
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

describe('the dashboard under /app/ (issues 19 and 30)', () => {
  let app: Appliance;
  before(async () => {
    assert.ok(fs.existsSync(path.join(DIST, 'index.html')), 'web/dist missing: run `npm run build` first');
    app = await startAppliance({ processes: ['api'] });
  });
  after(async () => {
    await app.stop();
  });

  it('serves index.html at /app/ and at every screen path under it, with the CSP and no-cache', async () => {
    for (const p of [
      '/app/',
      '/app/overview',
      '/app/emails',
      '/app/emails/em_123',
      '/app/domains/dom_1',
      '/app/signin',
      '/app/operator/',
    ]) {
      // Whatever the request asks for: the path alone says the dashboard.
      const res = await fetch(`${app.baseUrl}${p}`, { headers: { accept: 'application/json' } });
      assert.equal(res.status, 200, p);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(res.headers.get('content-security-policy'), CSP);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
      assert.equal(res.headers.get('cache-control'), 'no-cache');
      const html = await res.text();
      assert.match(html, /<div id="app">/);
      // No inline script: every <script> has a src under /app/assets/.
      for (const m of html.matchAll(/<script\b[^>]*>/g))
        assert.match(m[0], /src="\/app\/assets\/[\w-]+\.js"/);
    }
  });

  it('serves the hashed assets with a year of caching, and revalidates by ETag', async () => {
    const html = await (await fetch(`${app.baseUrl}/app/`)).text();
    const assets = [...html.matchAll(/(?:src|href)="(\/app\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    assert.ok(assets.some((a) => a.endsWith('.js')) && assets.some((a) => a.endsWith('.css')));
    for (const a of assets) {
      const res = await fetch(`${app.baseUrl}${a}`);
      assert.equal(res.status, 200, a);
      assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.match(res.headers.get('content-type') ?? '', a.endsWith('.js') ? /javascript/ : /text\/css/);
      const etag = res.headers.get('etag') ?? '';
      // node:http: fetch adds `Cache-Control: no-cache` to a conditional request, which forbids a 304.
      const again = await new Promise<number>((resolve, reject) => {
        http
          .get(`${app.baseUrl}${a}`, { headers: { 'if-none-match': etag } }, (r) => {
            r.resume();
            resolve(r.statusCode ?? 0);
          })
          .on('error', reject);
      });
      assert.equal(again, 304);
    }
  });

  it('answers nothing outside /app/: API paths, case variants and unknown paths stay JSON errors', async () => {
    const cases: [string, string, number][] = [
      ['GET', '/v1/emails', 401],
      ['GET', '/V1/EMAILS', 404],
      ['GET', '/internal/accounts', 404],
      ['GET', '/nothing-here', 404],
      ['GET', '/EMAILS', 404],
      ['GET', '/APP/', 404],
      ['GET', '/app/assets/missing.js', 404],
      ['GET', '/app/assets/missing', 404],
      ['GET', '/assets/index.js', 404],
      ['POST', '/', 404],
      ['POST', '/app/', 404],
      ['POST', '/signin', 404],
    ];
    for (const [method, p, status] of cases) {
      const res = await app.api.request(method, p);
      assert.equal(res.status, status, `${method} ${p}: ${res.text.slice(0, 80)}`);
      assert.match(res.headers.get('content-type') ?? '', /application\/json/, `${method} ${p}`);
    }
  });

  it('answers an unknown path under /app/ with the app and 404: it shows "Page not found" (issue 29 item 9)', async () => {
    const index = await (await fetch(`${app.baseUrl}/app/`)).text();
    for (const p of [
      '/app/no-such-screen',
      '/app/Overview',
      '/app/emails/a/b/c',
      '/app/overview/x',
      '/app/x.php',
      // Also where a client normalised /app/assets/../index.html: never a file path.
      '/app/index.html',
    ]) {
      const res = await fetch(`${app.baseUrl}${p}`);
      assert.equal(res.status, 404, p);
      assert.match(res.headers.get('content-type') ?? '', /text\/html/, p);
      assert.equal(res.headers.get('content-security-policy'), CSP, p);
      assert.equal(await res.text(), index, p);
    }
  });

  it('redirects / and the old screen paths that no API has to the same path under /app/', async () => {
    const cases: [string, string][] = [
      ['/', '/app/'],
      ['/app', '/app/'],
      ['/signin', '/app/signin'],
      ['/signup', '/app/signup'],
      ['/overview', '/app/overview'],
      ['/inbound/inb_1', '/app/inbound/inb_1'],
      ['/settings', '/app/settings'],
      ['/account', '/app/account'],
      ['/operator/', '/app/operator/'],
      ['/signin?next=x', '/app/signin?next=x'],
    ];
    for (const [from, to] of cases) {
      // Whatever Accept says: a path, not a header, decides.
      for (const accept of ['text/html', 'application/json']) {
        const res = await fetch(`${app.baseUrl}${from}`, { headers: { accept }, redirect: 'manual' });
        assert.equal(res.status, 302, `${from} (${accept})`);
        assert.equal(res.headers.get('location'), to, from);
      }
    }
    // Not redirected: a case variant, a deeper path, an unknown screen.
    for (const p of ['/SIGNIN', '/signin/a/b/c', '/overviews']) {
      assert.equal((await fetch(`${app.baseUrl}${p}`, { redirect: 'manual' })).status, 404, p);
    }
  });

  it('leaves the screens at Resend paths to the Resend API: an anonymous browser gets its JSON 401', async () => {
    for (const p of ['/emails', '/emails/em_1', '/domains', '/api-keys', '/webhooks', '/suppressions']) {
      // A browser's own Accept header, and no redirect followed.
      const res = await fetch(`${app.baseUrl}${p}`, {
        headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
        redirect: 'manual',
      });
      assert.equal(res.status, 401, p);
      assert.match(res.headers.get('content-type') ?? '', /application\/json/, p);
      const body = (await res.json()) as { statusCode: number; name: string };
      assert.equal(body.statusCode, 401, p);
      assert.equal(body.name, 'missing_api_key', p);
    }
  });
});

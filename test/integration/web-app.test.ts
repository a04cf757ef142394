// Issue 19: the dashboard served by the api at `/`, under its strict CSP, without ever
// answering for an API path.
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

describe('the dashboard at / (issue 19)', () => {
  let app: Appliance;
  before(async () => {
    assert.ok(fs.existsSync(path.join(DIST, 'index.html')), 'web/dist missing: run `npm run build` first');
    app = await startAppliance({ processes: ['api'] });
  });
  after(async () => {
    await app.stop();
  });

  it('serves index.html at / and at every screen path, with the CSP and no-cache', async () => {
    for (const p of [
      '/',
      '/overview',
      '/emails',
      '/emails/em_123',
      '/domains/dom_1',
      '/signin',
      '/operator/',
    ]) {
      // As a browser navigates (Accept: text/html): /emails, /domains … are also the Resend-compatible
      // API's paths (issue 20), which answer every other request (docs/resend-compatibility.md).
      const res = await fetch(`${app.baseUrl}${p}`, { headers: { accept: 'text/html' } });
      assert.equal(res.status, 200, p);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(res.headers.get('content-security-policy'), CSP);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
      assert.equal(res.headers.get('cache-control'), 'no-cache');
      const html = await res.text();
      assert.match(html, /<div id="app">/);
      // No inline script: every <script> has a src under /assets/.
      for (const m of html.matchAll(/<script\b[^>]*>/g)) assert.match(m[0], /src="\/assets\/[\w-]+\.js"/);
    }
  });

  it('serves the hashed assets with a year of caching, and revalidates by ETag', async () => {
    const html = await (await fetch(`${app.baseUrl}/`)).text();
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
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

  it('answers nothing outside its screens: API paths, case variants and unknown paths stay JSON errors', async () => {
    const cases: [string, string, number][] = [
      ['GET', '/v1/emails', 401],
      ['GET', '/V1/EMAILS', 404],
      ['GET', '/internal/accounts', 404],
      ['GET', '/nothing-here', 404],
      ['GET', '/EMAILS', 404],
      ['GET', '/assets/missing.js', 404],
      ['GET', '/assets/../index.html', 404],
      ['POST', '/', 404],
      ['POST', '/overview', 404],
    ];
    for (const [method, p, status] of cases) {
      const res = await app.api.request(method, p);
      assert.equal(res.status, status, `${method} ${p}: ${res.text.slice(0, 80)}`);
      assert.match(res.headers.get('content-type') ?? '', /application\/json/, `${method} ${p}`);
    }
  });
});

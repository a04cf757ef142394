// Issue 28 item 9: the dashboard behind https (a TLS-terminating proxy in front of the api, as
// an operator runs it). The session cookies are then `__Host-` prefixed, and the dashboard's own
// script must echo `__Host-mr_csrf`, or every state change it makes is CSRF_FAILED.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import { browserUnavailable, launchChromium, signIn } from '../helpers/browser';
import { makeSelfSignedCert } from '../helpers/tls-cert';

const unavailable = browserUnavailable();

/** An https listener on 127.0.0.1 that forwards every request to `target()`'s http port. */
async function tlsProxy(target: () => number): Promise<{ port: number; close(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-https-'));
  const cert = makeSelfSignedCert({
    dir,
    name: 'proxy',
    subject: '/CN=localhost',
    altNames: ['DNS:localhost'],
  });
  const server = https.createServer(
    { key: fs.readFileSync(cert.keyFile), cert: fs.readFileSync(cert.certFile) },
    (req, res) => {
      const upstream = http.request(
        { host: '127.0.0.1', port: target(), method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    },
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((r) => {
        server.close(() => r());
        server.closeAllConnections();
        fs.rmSync(dir, { recursive: true, force: true });
      }),
  };
}

describe('dashboard in a real browser: under an https BASE_URL', { skip: unavailable }, () => {
  let proxy: { port: number; close(): Promise<void> };
  let app: Appliance;
  let browser: Browser;
  let page: Page;
  let base: string;

  before(async () => {
    proxy = await tlsProxy(() => app.ports.http);
    base = `https://localhost:${proxy.port}`;
    app = await startAppliance({ processes: ['api'], env: { BASE_URL: base } });
    browser = await launchChromium();
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
    await proxy?.close();
  });

  it('signs in with __Host- cookies and makes a state change with their CSRF token', async () => {
    const account = await app.api.register();
    await signIn(page, base, account);
    const cookies = await page.context().cookies(base);
    assert.deepEqual(cookies.map((c) => c.name).sort(), ['__Host-mr_csrf', '__Host-mr_session']);
    for (const c of cookies) assert.equal(c.secure, true, c.name);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Key name').fill('over https');
    await page.getByRole('button', { name: 'Create key' }).click();
    // The key, or the dashboard's error (CSRF_FAILED when it echoed the wrong cookie).
    const shown = page.locator('[data-token=api-key], [role=alert]').first();
    await shown.waitFor();
    const token = (await shown.textContent()) ?? '';
    assert.match(token, /^re_live_/);
    const keys = await app.api.get<{ data: { name: string }[] }>('/v1/api-keys', { token: account.token });
    assert.deepEqual(
      keys.body.data.map((k) => k.name),
      ['over https'],
    );
  });
});

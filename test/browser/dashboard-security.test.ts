// Issue 19: the dashboard's security in a real browser: hostile email HTML previews without
// running or loading anything, a cross-site form post is refused, a suspended account sees
// its banner and cannot send, an expired or ended session lands on sign-in.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { SessionSigner } from '../../src/modules/accounts/sessions';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import { browserUnavailable, checkScreen, collectCspViolations, launchChromium } from '../helpers/browser';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import type { SmtpSink } from '../helpers/smtp-sink';
import { startSmtpSink } from '../helpers/smtp-sink';
import { runCtl } from '../helpers/ctl';
import { addVerifiedDomain } from '../helpers/verified-domain';
import { waitUntil } from '../helpers/wait-until';

const DOMAIN = 'news.example.com';
const SECRET_KEY = 'browser-test-secret-key-0123456789abcdef';
const unavailable = browserUnavailable();

/** A plain HTTP server on another site (127.0.0.1 vs localhost) that records what it is asked. */
async function otherSite(
  page: (path: string) => string,
): Promise<{ url: string; paths: string[]; close(): Promise<void> }> {
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    paths.push(req.url ?? '');
    res.setHeader('content-type', 'text/html');
    res.end(page(req.url ?? ''));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    paths,
    close: () =>
      new Promise((r) => {
        server.close(() => r());
        // The browser keeps its connections alive; close would wait for them to time out.
        server.closeAllConnections();
      }),
  };
}

describe('dashboard in a real browser: security', { skip: unavailable }, () => {
  let dns: FakeDns;
  let sink: SmtpSink;
  let app: Appliance;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let base: string;
  let csp: string[];
  let account: { token: string; userId: string; email: string; password: string };
  let apiKey: string;

  before(async () => {
    dns = await startDnsServer();
    sink = await startSmtpSink();
    app = await startAppliance({
      env: {
        DNS_SERVERS: dns.address,
        SMTP_RELAY: sink.address,
        SECRET_KEY,
        NEW_ACCOUNT_EMAILS_PER_HOUR: '1000',
      },
    });
    base = `http://localhost:${app.ports.http}`;
    account = await app.api.register();
    await addVerifiedDomain(app, dns, account.token, DOMAIN);
    const key = await app.api.post<{ token: string }>('/v1/api-keys', {
      token: account.token,
      body: { name: 'k' },
    });
    apiKey = key.body.token;
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    csp = collectCspViolations(page);
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
    await sink?.close();
    await dns?.close();
  });

  const heading = (name: string) => page.getByRole('heading', { level: 1, name });

  it('signs in, showing a wrong password in words', async () => {
    await page.goto(`${base}/app/signin`);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Email or password is wrong' }).waitFor();
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await heading('Overview').waitFor();
  });

  it('previews a malicious HTML email without running its script or loading anything', async () => {
    const remote = await otherSite(() => 'remote');
    try {
      const html = [
        '<p>Win a prize</p>',
        `<script>parent.postMessage('script ran', '*'); new Image().src = '${remote.url}/script';</script>`,
        `<img src="${remote.url}/pixel.png" alt="">`,
        `<div style="background:url(${remote.url}/bg.png)">x</div>`,
        `<link rel="stylesheet" href="${remote.url}/style.css">`,
        `<form action="${remote.url}/steal" method="post"><input name="x" value="1"><button>go</button></form>`,
        `<meta http-equiv="refresh" content="0;url=${remote.url}/refresh">`,
        `<iframe src="${remote.url}/frame"></iframe>`,
      ].join('\n');
      const sent = await app.api.post<{ id: string }>('/v1/emails', {
        token: apiKey,
        body: { from: `promo@${DOMAIN}`, to: ['reader@dest.test'], subject: 'Malicious', html },
      });
      assert.equal(sent.status, 202, sent.text);
      const id = sent.body.id;
      const probe = await app.api.get(`/v1/emails/${id}/preview?part=html&remoteImages=0`, {
        token: account.token,
      });
      assert.equal(probe.status, 200, probe.text);
      await page.evaluate(
        `window.addEventListener('message', (e) => { window.fromPreview = String(e.data); })`,
      );
      await page.goto(`${base}/app/emails/${id}`);
      await page.evaluate(
        `window.addEventListener('message', (e) => { window.fromPreview = String(e.data); })`,
      );
      const frame = page.frameLocator('iframe[title="Message preview"]');
      await frame.getByText('Win a prize').waitFor();
      await page.waitForTimeout(1_500);
      assert.equal(remote.paths.join(', '), '', 'nothing loaded from the remote host');
      assert.equal(await page.evaluate<unknown>('window.fromPreview'), undefined, 'no script ran');
      assert.equal(new URL(page.url()).pathname, `/app/emails/${id}`);
      await checkScreen(page, 'email-preview');
      // The toggle loads remote images, and still nothing else.
      await page.getByLabel('Load remote images').check();
      await frame.getByText('Win a prize').waitFor();
      await page.waitForTimeout(1_500);
      assert.ok(remote.paths.includes('/pixel.png'), `remote image loaded: ${remote.paths.join(', ')}`);
      for (const p of remote.paths) assert.doesNotMatch(p, /script|steal|refresh|frame/);
      assert.equal(await page.evaluate<unknown>('window.fromPreview'), undefined, 'still no script ran');
    } finally {
      await remote.close();
    }
  });

  it('with remote images on, loads the images and nothing an email links to (issue 28)', async () => {
    // Chromium lets a <link rel=prefetch> through when any fetch directive allows its URL, so
    // `img-src http:` alone let it out: the preview renames every <link> (any case or form).
    const remote = await otherSite(() => '');
    const other = await otherSite(() => '');
    try {
      const html = [
        '<p>Remote images</p>',
        `<link rel="prefetch" href="${remote.url}/prefetch">`,
        `<LINK REL=PREFETCH HREF="${remote.url}/prefetch-upper">`,
        `<link/rel="prefetch" href="${remote.url}/prefetch-slash">`,
        `<link\nrel="prefetch"\nhref="${remote.url}/prefetch-newline">`,
        `<link rel="preload" as="fetch" href="${remote.url}/preload-fetch">`,
        `<link rel="modulepreload" href="${remote.url}/modulepreload">`,
        `<link rel="stylesheet" href="${remote.url}/style.css">`,
        `<link rel="preconnect" href="${other.url}">`,
        `<link rel="dns-prefetch" href="${other.url}">`,
        `<img src="${remote.url}/pixel.png" alt="">`,
      ].join('\n');
      const sent = await app.api.post<{ id: string }>('/v1/emails', {
        token: apiKey,
        body: { from: `promo@${DOMAIN}`, to: ['reader@dest.test'], subject: 'Links', html },
      });
      assert.equal(sent.status, 202, sent.text);
      await page.goto(`${base}/app/emails/${sent.body.id}`);
      const frame = page.frameLocator('iframe[title="Message preview"]');
      await frame.getByText('Remote images').waitFor();
      await page.getByLabel('Load remote images').check();
      await waitUntil('the remote image', () => remote.paths.includes('/pixel.png'), 20_000);
      // What a prefetch would fetch it fetches at once; a margin for a slow shared machine.
      await page.waitForTimeout(2_000);
      assert.deepEqual(remote.paths, ['/pixel.png']);
      assert.deepEqual(other.paths, []);
    } finally {
      await remote.close();
      await other.close();
    }
  });

  it('refuses a cross-site form post to a state-changing endpoint', async () => {
    const before = await app.api.get<{ data: unknown[] }>('/v1/api-keys', { token: account.token });
    // text/plain lets a form send a JSON-looking body: name + "=" + value.
    const evil = await otherSite(
      () => `<!doctype html><form id="f" method="post" action="${base}/v1/api-keys" enctype="text/plain">
        <input name='{"name":"planted","x":"' value='"}'></form><script>document.getElementById('f').submit()</script>`,
    );
    try {
      const answer = page.waitForResponse(
        (r) => r.url() === `${base}/v1/api-keys` && r.request().method() === 'POST',
      );
      await page.goto(evil.url);
      const res = await answer;
      // 415: a text/plain body is refused before authentication (docs/api.md, request bodies).
      assert.ok([401, 403, 415].includes(res.status()), `cross-site post answered ${res.status()}`);
      // Same origin but without the token (as an injected script might try): CSRF_FAILED.
      await page.goto(`${base}/app/api-keys`);
      await heading('API keys').waitFor();
      const status = await page.evaluate<number>(
        `fetch('/v1/api-keys', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"planted"}' }).then((r) => r.status)`,
      );
      assert.equal(status, 403);
      const afterwards = await app.api.get<{ data: unknown[] }>('/v1/api-keys', { token: account.token });
      assert.equal(afterwards.body.data.length, before.body.data.length, 'no key was planted');
    } finally {
      await evil.close();
    }
  });

  it('an operator suspends the account on the Operator screen: its UI shows the banner and sending stops', async () => {
    const operator = await app.api.register();
    const granted = await runCtl(app.env, ['accounts', 'grant-operator', operator.email]);
    assert.equal(granted.code, 0, granted.stderr);
    const opContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    opContext.setDefaultTimeout(20_000);
    try {
      const op = await opContext.newPage();
      const opCsp = collectCspViolations(op);
      await op.goto(`${base}/app/signin`);
      await op.getByLabel('Email').fill(operator.email);
      await op.getByLabel('Password').fill(operator.password);
      await op.getByRole('button', { name: 'Sign in' }).click();
      await op.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Operator' }).click();
      const row = op.locator(`[data-account="${account.email}"]`);
      await row.waitFor();
      await op.getByRole('table', { name: 'Audit log' }).waitFor();
      await checkScreen(op, 'operator');
      await row.getByRole('button', { name: `Suspend ${account.email}` }).click();
      const form = op.getByRole('form', { name: `Suspend ${account.email}` });
      await form.getByLabel('Reason').fill('Complaint rate over 0.3 %');
      await form.getByRole('button', { name: 'Suspend account' }).click();
      await row.getByText('SUSPENDED').waitFor();
      assert.deepEqual(opCsp, []);
    } finally {
      await opContext.close();
    }
    // The account's own dashboard, on its next request.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Emails' }).click();
    await page.getByRole('alert').filter({ hasText: 'This account is suspended' }).waitFor();
    await page.getByText('Complaint rate over 0.3 %').waitFor();
    await checkScreen(page, 'suspended');
    const send = await app.api.post<{ error: { code: string } }>('/v1/emails', {
      token: apiKey,
      body: { from: `promo@${DOMAIN}`, to: ['reader@dest.test'], subject: 'x', text: 'x' },
    });
    assert.equal(send.status, 403);
    assert.equal(send.body.error.code, 'ACCOUNT_SUSPENDED');
    const reinstated = await app.api.post(`/internal/accounts/${account.userId}/reinstate`, {
      headers: { 'x-internal-token': app.internalToken },
      body: {},
    });
    assert.equal(reinstated.status, 200, reinstated.text);
  });

  it('an expired session lands on sign-in', async () => {
    const expired = await new SessionSigner(SECRET_KEY, -60).issue({ userId: account.userId, epoch: 0 });
    const fresh = await browser.newContext();
    try {
      await fresh.addCookies([{ name: 'mr_session', value: expired.token, url: base }]);
      const p = await fresh.newPage();
      await p.goto(`${base}/app/emails`);
      await p.getByRole('heading', { level: 1, name: 'Sign in to Mailroom' }).waitFor();
      assert.equal(new URL(p.url()).pathname, '/app/signin');
    } finally {
      await fresh.close();
    }
  });

  it('signing out ends the session: the old cookie and token no longer work', async () => {
    // Reinstated, the account signs in again: its sessions from before the suspension stay ended.
    await page.goto(`${base}/app/signin`);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await heading('Overview').waitFor();
    const old = (await context.cookies(base)).find((c) => c.name === 'mr_session')?.value ?? '';
    await page.getByRole('button', { name: 'Sign out' }).click();
    await heading('Sign in to Mailroom').waitFor();
    assert.equal((await app.api.get('/v1/auth/me', { token: old })).status, 401);
    await page.goto(`${base}/app/overview`);
    await heading('Sign in to Mailroom').waitFor();
  });

  it('kept to the CSP', () => {
    assert.deepEqual(csp, []);
  });
});

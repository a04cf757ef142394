// The dashboard shows a message the worker could not parse: an `unparsed` badge in the inbound
// list, the reason on its page, and a raw download that returns the bytes the client sent.
// Real Chromium against the whole appliance (real Haraka, the worker, SQLite or PostgreSQL).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import { browserUnavailable, launchChromium, seriousViolations, signIn } from '../helpers/browser';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { sendRaw, setReceiving, waitForInbound } from '../helpers/inbound-mail';
import { addVerifiedDomain } from '../helpers/verified-domain';

const unavailable = browserUnavailable();
const TO = 'support@inbox.badge.example.com';

describe('dashboard: an unparsed inbound message', { skip: unavailable }, () => {
  let dns: FakeDns;
  let app: Appliance;
  let browser: Browser;
  let page: Page;
  let account: { token: string; email: string; password: string };
  let raw: Buffer;
  let id: string;

  before(async () => {
    dns = await startDnsServer();
    app = await startAppliance({ env: { DNS_SERVERS: dns.address } });
    account = await app.api.register();
    const domainId = (await addVerifiedDomain(app, dns, account.token, 'badge.example.com')).id;
    await setReceiving(app, account.token, domainId, { receiveEnabled: true });
    await new Promise((r) => setTimeout(r, 2_500)); // the MX's view of domains refreshes every 2 s
    const parts = Array.from({ length: 1_100 }, (_, i) => `--b\r\nContent-Type: text/plain\r\n\r\n${i}\r\n`);
    raw = Buffer.from(
      `From: a@example.org\r\nTo: ${TO}\r\nSubject: too many parts\r\nMIME-Version: 1.0\r\n` +
        `Content-Type: multipart/mixed; boundary="b"\r\n\r\n${parts.join('')}--b--\r\n`,
    );
    assert.match((await sendRaw(app, raw, { from: 'a@example.org', to: [TO] })).response, /^250 /);
    id = (await waitForInbound(app, account.token, () => true, 60_000)).id;
    browser = await launchChromium();
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      acceptDownloads: true,
    });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
  });

  after(async () => {
    await browser?.close();
    await app?.stop();
    await dns?.close();
  });

  it('badge in the list, reason on the page, raw download', async () => {
    const base = `http://localhost:${app.ports.http}`;
    await signIn(page, base, account);

    await page.goto(`${base}/app/inbound`);
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: '(no subject)' }) });
    await row.getByText('unparsed', { exact: true }).waitFor();
    assert.deepEqual(await seriousViolations(page), []);

    await row.getByRole('link', { name: '(no subject)' }).click();
    await page.getByRole('status').filter({ hasText: 'more than 1000 MIME parts' }).waitFor();
    await page.getByText(TO).first().waitFor(); // the envelope recipient is shown
    assert.deepEqual(await seriousViolations(page), []);
    assert.equal(await page.locator('iframe[title="Message preview"]').count(), 0, 'no preview of nothing');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download raw (.eml)' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), `${id}.eml`);
    const file = await download.path();
    assert.ok(fs.readFileSync(file).equals(raw), 'the download is the message as sent');
  });
});

// Issue 29 item 4: with MAIL_HOSTNAME left as the OS host name (`vm`, as the README's `docker run`
// gives a container its hex id), the overview and the domain screens say it is no public name,
// and the records built from it (SPF include, return path) have no Copy button but the reason.
// Set to a public name and restarted, the banner is gone and every record can be copied.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import {
  browserUnavailable,
  collectCspViolations,
  launchChromium,
  seriousViolations,
} from '../helpers/browser';

const unavailable = browserUnavailable();
const DOMAIN = 'news.example.com';

describe('dashboard: MAIL_HOSTNAME that is no public name', { skip: unavailable }, () => {
  let app: Appliance;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let csp: string[];
  before(async () => {
    app = await startAppliance({ processes: ['api'], env: { MAIL_HOSTNAME: 'vm' } });
    base = `http://localhost:${app.ports.http}`;
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    csp = collectCspViolations(page);
  });
  after(async () => {
    assert.deepEqual(csp, []);
    await context?.close();
    await browser?.close();
    await app?.stop();
  });

  const banner = () => page.getByRole('alert').filter({ hasText: 'MAIL_HOSTNAME' });
  const heading = (name: string) => page.getByRole('heading', { level: 1, name });
  const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name });
  const row = (purpose: string) => page.getByRole('row').filter({ hasText: new RegExp(`^${purpose}`) });

  it('the overview says so, with what breaks and how to set it', async () => {
    await page.goto(`${base}/app/signup`);
    await page.getByLabel('Name').fill('Host');
    await page.getByLabel('Email').fill('host@example.com');
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await heading('Overview').waitFor();
    await banner().waitFor();
    const text = (await banner().textContent()) ?? '';
    assert.match(text, /MAIL_HOSTNAME \(vm\) is not a public fully qualified domain name/);
    assert.match(text, /cannot work/);
    assert.match(text, /sets MAIL_HOSTNAME to this server's public name/);
    assert.match(text, /"vm" is a single label/);
    assert.deepEqual(await seriousViolations(page), []);
  });

  it('the domain screens say so; the records built from it have no Copy button, but the reason', async () => {
    await nav('Domains').click();
    await heading('Domains').waitFor();
    await banner().waitFor();
    await page.getByLabel('Domain to send from').fill(DOMAIN);
    await page.getByRole('button', { name: 'Add domain' }).click();
    await heading(DOMAIN).waitFor();
    await banner().waitFor();
    for (const purpose of ['spf', 'return_path']) {
      await row(purpose).getByText('unusable').waitFor();
      assert.match(
        (await row(purpose).textContent()) ?? '',
        /Do not publish. It names .*vm, which is not a public DNS name/,
      );
      assert.equal(await row(purpose).getByRole('button').count(), 0, purpose);
    }
    await page.getByRole('button', { name: 'Copy dkim value' }).waitFor();
    await page.getByRole('button', { name: 'Copy dmarc value' }).waitFor();
    assert.deepEqual(await seriousViolations(page), []);
  });

  it('set to a public name and restarted: no banner, every record has its Copy buttons', async () => {
    await app.stop();
    app = await startAppliance({
      processes: ['api'],
      dataDir: app.dataDir,
      env: { MAIL_HOSTNAME: 'mail.example.net' },
    });
    base = `http://localhost:${app.ports.http}`;
    // A fresh browser: the old one's cookies (host-wide, any port) would skip the sign-in.
    assert.deepEqual(csp, []);
    await context.close();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    csp = collectCspViolations(page);
    await page.goto(`${base}/app/signin`);
    await page.getByLabel('Email').fill('host@example.com');
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await heading('Overview').waitFor();
    await page.locator('[data-ready="overview"]').waitFor();
    assert.equal(await banner().count(), 0);
    await nav('Domains').click();
    await page.getByRole('link', { name: DOMAIN }).click();
    await heading(DOMAIN).waitFor();
    for (const purpose of ['spf', 'dkim', 'dmarc', 'return_path'])
      await page.getByRole('button', { name: `Copy ${purpose} value` }).waitFor();
    assert.match((await row('spf').textContent()) ?? '', /include:_spf\.mail\.example\.net/);
    assert.equal(await page.getByText('unusable').count(), 0);
    assert.equal(await banner().count(), 0);
  });
});

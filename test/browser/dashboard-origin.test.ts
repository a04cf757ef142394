// Issue 29 item 3: the API takes the dashboard's state changes only from BASE_URL's origin
// (else CSRF_FAILED), so a dashboard opened at another origin says so on the sign-in and
// sign-up screens, before anyone signs up, and links to the right one. BASE_URL is the default
// http://localhost:<port>; the wrong origin is the same server at 127.0.0.1.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import {
  browserUnavailable,
  collectCspViolations,
  launchChromium,
  seriousViolations,
} from '../helpers/browser';

const unavailable = browserUnavailable();

describe('dashboard opened at an origin other than BASE_URL', { skip: unavailable }, () => {
  let app: Appliance;
  let right: string;
  let wrong: string;
  let browser: Browser;
  before(async () => {
    app = await startAppliance({ processes: ['api'] });
    right = `http://localhost:${app.ports.http}`;
    wrong = `http://127.0.0.1:${app.ports.http}`;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  async function withPage(fn: (page: Page) => Promise<void>): Promise<void> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(20_000);
    try {
      const page = await context.newPage();
      const csp = collectCspViolations(page);
      await fn(page);
      assert.deepEqual(csp, []);
    } finally {
      await context.close();
    }
  }

  const banner = (page: Page) => page.getByRole('alert').filter({ hasText: 'BASE_URL' });

  it('BASE_URL reaches the sign-in screen unauthenticated and is in /openapi.json', async () => {
    const res = await fetch(`${wrong}/v1/auth/options`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { origin: right });
    const doc = (await (await fetch(`${right}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    assert.deepEqual(doc.paths['/v1/auth/options']?.get?.security, []);
  });

  for (const [screen, heading] of [
    ['signin', 'Sign in to Mailroom'],
    ['signup', 'Create a Mailroom account'],
  ] as const) {
    it(`${screen} at 127.0.0.1 names both origins and links to BASE_URL's; there the banner is gone`, async () => {
      await withPage(async (page) => {
        await page.goto(`${wrong}/app/${screen}`);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        await banner(page).waitFor();
        const text = (await banner(page).textContent()) ?? '';
        assert.match(
          text,
          new RegExp(
            `You opened this dashboard at ${wrong}, but this server is configured for ${right} \\(BASE_URL\\)`,
          ),
        );
        assert.match(text, /Signing in here will fail/);
        assert.match(text, new RegExp(`set BASE_URL=${wrong} and restart`));
        assert.deepEqual(await seriousViolations(page), []);

        await banner(page).getByRole('link', { name: right }).click();
        await page.waitForURL(`${right}/app/${screen}`);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        await page.locator('[data-ready="origin"]').waitFor({ state: 'attached' });
        assert.equal(await banner(page).count(), 0);
      });
    });
  }

  it('the banner is right: at 127.0.0.1 the account signs up, and its first change is CSRF_FAILED', async () => {
    await withPage(async (page) => {
      await page.goto(`${wrong}/app/signup`);
      await banner(page).waitFor();
      await page.getByLabel('Name').fill('Origin');
      await page.getByLabel('Email').fill('origin@example.com');
      await page.getByLabel('Password').fill('a long enough password');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      // What the dashboard's own request would send: the CSRF cookie repeated, the page's Origin.
      const status = await page.evaluate<string>(`(async () => {
        const csrf = /(?:^|; )mr_csrf=([^;]*)/.exec(document.cookie)?.[1] ?? '';
        const res = await fetch('/v1/api-keys', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
          body: JSON.stringify({ name: 'k' }),
        });
        return res.status + ' ' + (await res.json()).error.code;
      })()`);
      assert.equal(status, '403 CSRF_FAILED');
    });
  });
});

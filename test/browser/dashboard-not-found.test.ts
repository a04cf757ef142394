// Issue 29 item 9 in a real browser: an unknown dashboard URL is answered with the app (status
// 404) and shows "Page not found" in the app's layout, with a link back to the overview, instead
// of the API's JSON; an unknown API path keeps the API's JSON error.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import { waitUntil } from '../helpers/wait-until';
import {
  browserUnavailable,
  checkScreen,
  collectCspViolations,
  launchChromium,
  signIn,
  sticksOutPast,
} from '../helpers/browser';

const unavailable = browserUnavailable();

describe('dashboard in a real browser: an unknown page', { skip: unavailable }, () => {
  let app: Appliance;
  let browser: Browser;
  let page: Page;
  let csp: string[];
  let base: string;

  before(async () => {
    app = await startAppliance({ processes: ['api'] });
    base = `http://localhost:${app.ports.http}`;
    const user = await app.api.register();
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    csp = collectCspViolations(page);
    await signIn(page, base, user);
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  for (const p of ['/app/no-such-screen', '/app/emails/em_1/deeper/still', '/app/Overview']) {
    it(`${p}: 404, "Page not found" in the app's layout, a link back to the overview`, async () => {
      const res = await page.goto(`${base}${p}`);
      assert.equal(res?.status(), 404);
      await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      // The screen sets the title in an effect after its heading renders: wait for it, then check it.
      // (A string predicate for waitForFunction is an eval the CSP refuses: poll from here.)
      await waitUntil('the screen sets its title', async () => (await page.title()) !== 'Mailroom', 5000);
      assert.equal(await page.title(), 'Page not found · Mailroom');
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      await page.getByText(`There is no dashboard page at ${p}.`).waitFor();
      assert.equal(new URL(page.url()).pathname, p, 'not redirected away');
    });
  }

  it('looks right in both themes and at 390 and 1,280 px; the link leads to the overview', async () => {
    await page.goto(
      `${base}/app/a-page-that-never-was-with-a-rather-long-name/and-a-long-id-segment-0123456789abcdef`,
    );
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    await checkScreen(page, 'not-found');
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      assert.deepEqual(await sticksOutPast(page, width), [], `nothing wider than ${width} px`);
    }
    await page.getByRole('link', { name: 'Back to the overview' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/app/overview');
  });

  it('a known screen is no 404: signed in, the sign-in page leads to the overview', async () => {
    const res = await page.goto(`${base}/app/signin`);
    assert.equal(res?.status(), 200);
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/app/overview');
  });

  it("an unknown API path keeps the API's JSON error", async () => {
    const res = await page.request.get(`${base}/v1/no-such-thing`);
    assert.equal(res.status(), 404);
    assert.match(res.headers()['content-type'] ?? '', /application\/json/);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'NOT_FOUND');
  });

  it('kept to the CSP', () => {
    assert.deepEqual(csp, []);
  });
});

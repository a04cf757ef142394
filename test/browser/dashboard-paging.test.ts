// The dashboard's one cursor pager (web/src/list.tsx, issue 30 item 3), driven by real Chromium
// against the whole appliance: Older follows the page's nextCursor, Newer walks back, a new
// search starts again from the first page. The suppressions list stands for the four lists.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import { browserUnavailable, launchChromium, signIn } from '../helpers/browser';
import { waitUntil } from '../helpers/wait-until';

const unavailable = browserUnavailable();
/** One more than a page (the list asks for 25) and a bit: two pages, the second short. */
const SUPPRESSED = 27;

describe('dashboard: paging through a list', { skip: unavailable }, () => {
  let app: Appliance;
  let browser: Browser;
  let page: Page;
  let account: { token: string; email: string; password: string };

  before(async () => {
    app = await startAppliance();
    account = await app.api.register();
    for (let i = 0; i < SUPPRESSED; i++) {
      const res = await app.api.post('/v1/suppressions', {
        token: account.token,
        body: { email: `paged-${String(i).padStart(2, '0')}@example.org`, type: 'manual' },
      });
      assert.equal(res.status, 201, res.text);
    }
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
  });

  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  const rows = () =>
    page.getByRole('table', { name: 'Suppressed addresses' }).locator('tbody tr[data-suppression]');
  const button = (name: 'Newer' | 'Older') => page.getByRole('button', { name, exact: true });

  /** The addresses on the page once it shows `count` rows. */
  async function shown(count: number): Promise<string[]> {
    await waitUntil(`${count} rows`, async () => (await rows().count()) === count);
    // The first cell is the address.
    return rows().locator('td:first-child').allInnerTexts();
  }

  it('Older and Newer walk the pages; a new search starts from the first', async () => {
    const base = `http://localhost:${app.ports.http}`;
    await signIn(page, base, account);

    await page.goto(`${base}/app/suppressions`);
    const first = await shown(25);
    assert.ok(await button('Newer').isDisabled(), 'the first page has nothing newer');
    assert.ok(await button('Older').isEnabled());

    await button('Older').click();
    const second = await shown(SUPPRESSED - 25);
    assert.deepEqual(
      second.filter((a) => first.includes(a)),
      [],
      'the second page repeats no row of the first',
    );
    assert.equal(new Set([...first, ...second]).size, SUPPRESSED, 'the two pages show every address');
    assert.ok(await button('Older').isDisabled(), 'the last page has nothing older');
    assert.ok(await button('Newer').isEnabled());

    await button('Newer').click();
    assert.deepEqual(await shown(25), first, 'Newer shows the first page again');

    await button('Older').click();
    await shown(SUPPRESSED - 25);
    await page.getByLabel('Address contains').fill('paged-');
    await page.getByRole('button', { name: 'Search' }).click();
    assert.deepEqual(await shown(25), first, 'a search starts from the first page');
    assert.ok(await button('Newer').isDisabled());
  });
});

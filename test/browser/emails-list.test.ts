// The email list's filters in the URL, its total, saved views and keyboard shortcuts (issue 29
// item 11), driven by real Chromium against the appliance's api: a filter changes the URL, a
// reload keeps it, Back restores the one before; the total matches the rows; a saved view
// restores its filters; j/k/Enter/Escape/u work, and do nothing while typing in the search.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { Db } from '../../src/db/connect';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import { browserUnavailable, checkScreen, launchChromium, signIn, sticksOutPast } from '../helpers/browser';
import { insertEmail } from '../helpers/email-fixtures';
import { openApplianceDb } from '../helpers/open-database';
import { waitUntil } from '../helpers/wait-until';

const unavailable = browserUnavailable();
const BOUNCED = ['Returned 1', 'Returned 2', 'Returned 3'];
const DELIVERED = ['Invoice 1', 'Invoice 2', 'Invoice 3', 'Invoice 4'];

describe(
  'dashboard: the email list (URL filters, total, saved views, shortcuts)',
  { skip: unavailable },
  () => {
    let app: Appliance;
    let db: Db;
    let browser: Browser;
    let page: Page;
    let base: string;
    /** Subject → id. */
    const ids = new Map<string, string>();

    before(async () => {
      app = await startAppliance({ processes: ['api'] });
      db = openApplianceDb(app);
      const user = await app.api.register();
      const domain = await app.api.post<{ id: string }>('/v1/domains', {
        token: user.token,
        body: { domain: 'list.example.com' },
      });
      assert.equal(domain.status, 201, domain.text);
      const account = { userId: user.userId, domainId: domain.body.id, domain: 'list.example.com' };
      // Oldest first: the list shows the last one at the top.
      for (const subject of [...DELIVERED, ...BOUNCED]) {
        const status = subject.startsWith('Returned') ? 'bounced' : 'delivered';
        ids.set(subject, await insertEmail(db, account, { subject, status }));
      }
      browser = await launchChromium();
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      context.setDefaultTimeout(20_000);
      page = await context.newPage();
      base = `http://localhost:${app.ports.http}`;
      await signIn(page, base, user);
    });

    after(async () => {
      await browser?.close();
      await db?.destroy();
      await app?.stop();
    });

    const rows = () => page.locator('table.list tbody tr[data-email]');
    const search = () => page.getByLabel('Search subject or recipient');
    const status = () => page.getByLabel('Status');
    const query = () => new URL(page.url()).search;
    const path = () => new URL(page.url()).pathname;

    /** The subjects listed once there are `count` rows, and the total shown beside them. */
    async function listed(count: number): Promise<{ subjects: string[]; total: string }> {
      await waitUntil(`${count} rows`, async () => (await rows().count()) === count);
      const total = page.locator('p.total');
      await waitUntil(
        `a total of ${count}`,
        async () => (await total.getAttribute('data-total')) === String(count),
      );
      return { subjects: await rows().locator('a.row-link').allInnerTexts(), total: await total.innerText() };
    }
    /** The subject of the row holding the focus ('' for none). */
    const focusedRow = () =>
      page.evaluate<string>(
        `document.activeElement?.closest('tr[data-email]')?.querySelector('a')?.textContent ?? ''`,
      );

    it('keeps the filters in the URL: a filter pushes it, a reload keeps it, Back and Forward move between them', async () => {
      await page.goto(`${base}/app/emails`);
      assert.deepEqual(await listed(7), {
        subjects: [...DELIVERED, ...BOUNCED].reverse(),
        total: '7 emails',
      });

      await status().selectOption('bounced');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      assert.deepEqual(await listed(3), { subjects: [...BOUNCED].reverse(), total: '3 emails' });
      assert.equal(query(), '?status=bounced');

      await search().fill('returned 2');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      assert.deepEqual(await listed(1), { subjects: ['Returned 2'], total: '1 email' });
      assert.equal(query(), '?status=bounced&q=returned+2');

      await page.reload();
      assert.deepEqual(await listed(1), { subjects: ['Returned 2'], total: '1 email' });
      assert.equal(await search().inputValue(), 'returned 2', 'the reloaded form shows the filters');
      assert.equal(await status().inputValue(), 'bounced');

      await page.goBack();
      assert.deepEqual((await listed(3)).subjects, [...BOUNCED].reverse());
      assert.equal(query(), '?status=bounced');
      assert.equal(await search().inputValue(), '', 'Back restores the form too');
      assert.equal(await status().inputValue(), 'bounced');

      await page.goBack();
      await listed(7);
      assert.equal(query(), '');
      assert.equal(await status().inputValue(), '');

      await page.goForward();
      await listed(3);
      assert.equal(query(), '?status=bounced');

      // A bookmark of a filtered list opens on it.
      await page.goto(`${base}/app/emails?status=delivered&q=invoice%203`);
      assert.deepEqual(await listed(1), { subjects: ['Invoice 3'], total: '1 email' });
    });

    it('saves the filters as a view that restores them, kept across a reload', async () => {
      await page.goto(`${base}/app/emails?status=bounced`);
      await listed(3);
      await page.getByLabel('Name for the current filters').fill('Bounces');
      await page.getByRole('button', { name: 'Save view' }).click();
      const view = page.getByRole('region', { name: 'Saved views' }).getByRole('link', { name: 'Bounces' });
      await view.waitFor();
      assert.equal(await view.getAttribute('aria-current'), 'true', 'the view shown is marked');

      await page.getByRole('button', { name: 'Clear' }).click();
      await listed(7);
      assert.equal(query(), '');
      assert.equal(await view.getAttribute('aria-current'), null);
      await page.reload();
      await listed(7);
      await view.click();
      assert.deepEqual((await listed(3)).subjects, [...BOUNCED].reverse());
      assert.equal(query(), '?status=bounced');
      assert.equal(await status().inputValue(), 'bounced');
      await page.setViewportSize({ width: 390, height: 800 });
      assert.deepEqual(await sticksOutPast(page, 390), [], 'nothing sticks out at 390 px');
      await page.setViewportSize({ width: 1280, height: 800 });
      assert.deepEqual(await sticksOutPast(page, 1280), [], 'nothing sticks out at 1,280 px');
      await checkScreen(page, 'emails-filtered');
    });

    it('j and k move the highlighted row, Enter opens it, Escape and u go back to the filtered list', async () => {
      await page.goto(`${base}/app/emails?status=bounced`);
      await listed(3);
      await page.keyboard.press('j');
      assert.equal(await focusedRow(), 'Returned 3');
      await page.keyboard.press('j');
      await page.keyboard.press('j');
      assert.equal(await focusedRow(), 'Returned 1');
      await page.keyboard.press('j');
      assert.equal(await focusedRow(), 'Returned 1', 'j stops at the last row');
      await page.keyboard.press('k');
      assert.equal(await focusedRow(), 'Returned 2');
      // The highlighted row is visibly marked (its cells' background).
      const shade = await page.evaluate<string[]>(
        `[...document.querySelectorAll('table.list tbody tr')].map((tr) => getComputedStyle(tr.cells[1]).backgroundColor)`,
      );
      assert.notEqual(shade[1], shade[0], 'the highlighted row stands out');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Returned 2' }).waitFor();
      assert.equal(path(), `/app/emails/${ids.get('Returned 2')}`);

      await page.keyboard.press('Escape');
      await listed(3);
      assert.equal(query(), '?status=bounced', 'Escape goes back to the list with its filters');

      await page.keyboard.press('k');
      assert.equal(await focusedRow(), 'Returned 1', 'k from no highlighted row goes to the last');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Returned 1' }).waitFor();
      await page.keyboard.press('u');
      await listed(3);
      assert.equal(query(), '?status=bounced', 'u goes back too');

      // Opened from a bookmark, the detail's way back is the list last shown in this tab.
      await page.goto(`${base}/app/emails/${ids.get('Invoice 2')}`);
      await page.getByRole('heading', { level: 1, name: 'Invoice 2' }).waitFor();
      assert.equal(
        await page.getByRole('link', { name: '← Emails' }).getAttribute('href'),
        '/app/emails?status=bounced',
      );
      await page.keyboard.press('u');
      await listed(3);
      assert.equal(query(), '?status=bounced');
    });

    it('/ focuses the search, where j, k and Enter are typing, not shortcuts', async () => {
      await page.goto(`${base}/app/emails`);
      await listed(7);
      await page.keyboard.press('/');
      assert.equal(await page.evaluate<string>('document.activeElement?.id ?? ""'), 'email-search');
      assert.equal(await search().inputValue(), '', 'the / is not typed');
      await page.keyboard.type('jk');
      assert.equal(await search().inputValue(), 'jk');
      assert.equal(await focusedRow(), '', 'no row was highlighted');
      await search().fill('invoice 4');
      await page.keyboard.press('Enter');
      assert.deepEqual((await listed(1)).subjects, ['Invoice 4'], 'Enter in the search applies it');
      assert.equal(path(), '/app/emails', 'and opens no email');
      assert.equal(query(), '?q=invoice+4');
    });

    it('? lists the shortcuts; its Escape closes the list, not the email', async () => {
      await page.goto(`${base}/app/emails/${ids.get('Returned 3')}`);
      await page.getByRole('heading', { level: 1, name: 'Returned 3' }).waitFor();
      await page.keyboard.press('?');
      const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await dialog.waitFor();
      await dialog.getByText('Back to the list, with its filters').waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      assert.equal(path(), `/app/emails/${ids.get('Returned 3')}`, 'still on the email');

      await page.goto(`${base}/app/emails`);
      await listed(7);
      await page.getByRole('button', { name: /Keyboard shortcuts/ }).click();
      await dialog.getByText('Highlight the next email').waitFor();
      await checkScreen(page, 'emails-shortcuts');
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'hidden' });
    });
  },
);

// Issue 29 item 13 in a real browser: at phone width (390 px) the main links fold behind a Menu
// button instead of taking the top of every screen; the button says whether the menu is open,
// a chosen link closes it, and at 1,280 px the links show and the button does not. The API-key
// and DNS-record tables stack their rows, so the Revoke button and the record's value are on
// the screen, not clipped in a box that scrolls sideways.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import {
  browserUnavailable,
  launchChromium,
  seriousViolations,
  signIn,
  sticksOutPast,
} from '../helpers/browser';

const unavailable = browserUnavailable();

describe('dashboard in a real browser: the menu at phone width', { skip: unavailable }, () => {
  let app: Appliance;
  let browser: Browser;
  let page: Page;
  let base: string;
  let domainId: string;

  before(async () => {
    app = await startAppliance({ processes: ['api'] });
    base = `http://localhost:${app.ports.http}`;
    const user = await app.api.register();
    const key = await app.api.post('/v1/api-keys', { token: user.token, body: { name: 'billing server' } });
    assert.equal(key.status, 201, key.text);
    const domain = await app.api.post<{ id: string }>('/v1/domains', {
      token: user.token,
      body: { domain: 'phone.example.com' },
    });
    assert.equal(domain.status, 201, domain.text);
    domainId = domain.body.id;
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    await signIn(page, base, user);
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  const menu = () => page.getByRole('button', { name: 'Menu' });
  const emailsLink = () => page.locator('#main-nav').getByRole('link', { name: 'Emails' });
  const headerHeight = () =>
    page.evaluate<number>("document.querySelector('header.top').getBoundingClientRect().height");

  it('390 px: the links are folded, the header stays short, the button opens and closes them', async () => {
    assert.equal(await emailsLink().isVisible(), false, 'links folded');
    assert.equal(await menu().getAttribute('aria-expanded'), 'false');
    const folded = await headerHeight();
    assert.ok(folded < 110, `the folded header is ${folded} px tall`);

    await menu().click();
    assert.equal(await menu().getAttribute('aria-expanded'), 'true');
    await emailsLink().waitFor({ state: 'visible' });
    assert.deepEqual(await seriousViolations(page), [], 'accessibility with the menu open');
    assert.deepEqual(await sticksOutPast(page, 390), [], 'nothing wider than 390 px with the menu open');

    await menu().click();
    await emailsLink().waitFor({ state: 'hidden' });
    assert.equal(await menu().getAttribute('aria-expanded'), 'false');
  });

  it('390 px: a chosen link leads to its screen and folds the menu again', async () => {
    await menu().click();
    await emailsLink().click();
    await page.getByRole('heading', { level: 1, name: 'Emails' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/app/emails');
    await emailsLink().waitFor({ state: 'hidden' });
    assert.equal(await menu().getAttribute('aria-expanded'), 'false');
  });

  /** Where `locator`'s right edge is, in px from the viewport's left. */
  const rightEdge = async (locator: ReturnType<Page['locator']>): Promise<number> => {
    const box = await locator.boundingBox();
    assert.ok(box, 'on the page');
    return box.x + box.width;
  };

  it('390 px: the API-key rows stack, the Revoke button is on the screen with its dates named', async () => {
    await page.goto(`${base}/app/api-keys`);
    const revoke = page.getByRole('button', { name: 'Revoke billing server' });
    await revoke.waitFor();
    const right = await rightEdge(revoke);
    assert.ok(right <= 390, `Revoke ends at ${right} px`);
    const label = await page.evaluate<string>(
      `getComputedStyle(document.querySelector('td[data-label="Last used"]'), '::before').content`,
    );
    assert.equal(label, '"Last used: "', 'a stacked date names its column');
    assert.deepEqual(await sticksOutPast(page, 390), []);
    assert.deepEqual(await seriousViolations(page), []);
  });

  it('390 px: the DNS records stack, each value on the screen', async () => {
    await page.goto(`${base}/app/domains/${domainId}`);
    await page.getByRole('heading', { name: 'DNS records to publish' }).waitFor();
    const values = page.locator('table.records .value');
    assert.ok((await values.count()) >= 3, 'SPF, DKIM, DMARC at least');
    for (const value of await values.all()) {
      const right = await rightEdge(value);
      assert.ok(right <= 390, `a record's value ends at ${right} px`);
    }
    assert.deepEqual(await sticksOutPast(page, 390), []);
  });

  it('1,280 px: the links show and the Menu button does not', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await emailsLink().waitFor({ state: 'visible' });
    assert.equal(await menu().isVisible(), false);
    const wide = await headerHeight();
    assert.ok(wide < 80, `the header is ${wide} px tall at 1,280 px`);
  });
});

// "Find why a message bounced" in a real browser (the dashboard review's first task): a live send
// to the simulator's bounced@ address runs the whole bounce path (the worker's DSN, bounce intake,
// the automatic suppression; the DSN enters through the MTA, so the whole appliance runs); the email's page says in words why it bounced (a hard bounce: the
// address does not exist), that the address is now suppressed and since when, and removes the
// suppression from there, after which the API no longer lists it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import { browserUnavailable, checkScreen, collectCspViolations, launchChromium } from '../helpers/browser';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { addVerifiedDomain } from '../helpers/verified-domain';
import { waitUntil } from '../helpers/wait-until';

const unavailable = browserUnavailable();
const DOMAIN = 'bounces.example.com';
const BOUNCED = 'bounced@simulator.mailroom.invalid';

describe('dashboard in a real browser: why a message bounced', { skip: unavailable }, () => {
  let dns: FakeDns;
  let app: Appliance;
  let browser: Browser;
  let page: Page;
  let csp: string[];
  let token: string;
  let emailId: string;

  const suppressions = async () =>
    (
      await app.api.get<{ data: { email: string; type: string }[] }>(
        `/v1/suppressions?email=${encodeURIComponent(BOUNCED)}`,
        { token },
      )
    ).body.data;

  before(async () => {
    dns = await startDnsServer();
    app = await startAppliance({ env: { DNS_SERVERS: dns.address } });
    const user = await app.api.register();
    token = user.token;
    await addVerifiedDomain(app, dns, token, DOMAIN);
    const key = await app.api.post<{ token: string }>('/v1/api-keys', { token, body: { name: 'live' } });
    assert.equal(key.status, 201, key.text);
    const sent = await app.api.post<{ id: string }>('/v1/emails', {
      token: key.body.token,
      body: { from: `orders@${DOMAIN}`, to: BOUNCED, subject: 'Your order', text: 'Thanks' },
    });
    assert.equal(sent.status, 202, sent.text);
    emailId = sent.body.id;
    await waitUntil(
      'the bounce and its suppression',
      async () =>
        (await app.api.get<{ status: string }>(`/v1/emails/${emailId}`, { token })).body.status ===
          'bounced' && (await suppressions()).length === 1,
      30_000,
    );
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    csp = collectCspViolations(page);
    await page.goto(`http://localhost:${app.ports.http}/app/signin`);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
    await dns?.close();
  });

  it('says why in words, that the address is suppressed, and removes the suppression from there', async () => {
    await page.goto(`http://localhost:${app.ports.http}/app/emails/${emailId}`);
    const why = page.locator('.why', { has: page.getByRole('heading', { name: 'Why it bounced' }) });
    await why.waitFor();
    const reading = why.locator(`[data-recipient="${BOUNCED}"]`);
    await reading.getByText('hard bounce', { exact: true }).waitFor();
    await reading.getByText('userunknown', { exact: true }).waitFor();
    assert.match((await reading.textContent()) ?? '', /the address does not exist/);
    await reading.getByText(/^Suppressed since/).waitFor();
    await checkScreen(page, 'email-bounced');

    page.once('dialog', (dialog) => void dialog.accept());
    await reading.getByRole('button', { name: 'Remove the suppression' }).click();
    await reading.getByText('The address is not suppressed now').waitFor();
    assert.deepEqual(await suppressions(), [], 'the API no longer lists it');
  });

  it('kept to the CSP', () => {
    assert.deepEqual(csp, []);
  });
});

// Issue 29 items 14 and 6 in a real browser: a new account's overview shows a getting-started
// checklist (domain, records verified, API key, first email, webhook) whose steps tick
// themselves from the account's real state, each a link to where the step is done; an API key
// is created with a mode, a permission and a domain, and the curl snippet shown with it, run as
// printed, sends.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import { browserUnavailable, checkScreen, launchChromium, signIn } from '../helpers/browser';

const unavailable = browserUnavailable();

describe('dashboard in a real browser: the getting-started checklist', { skip: unavailable }, () => {
  let app: Appliance;
  let browser: Browser;
  let page: Page;
  let base: string;
  let token: string;

  before(async () => {
    app = await startAppliance({ processes: ['api'] });
    base = `http://localhost:${app.ports.http}`;
    const user = await app.api.register();
    token = user.token;
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    await signIn(page, base, user);
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  const checklist = () => page.locator('[data-ready="onboarding"]');
  /** Each step's text as a screen reader reads it: its label and "(done)" or "(to do)". */
  const steps = async (): Promise<string[]> =>
    (await checklist().locator('li').allInnerTexts()).map((t) =>
      t
        .replace(/^[✓○]\s*/, '')
        .replace(/\s+/g, ' ')
        .trim(),
    );

  it('a new account: every step to do, each a link to its screen', async () => {
    await checklist().waitFor();
    await checklist().getByText('0 of 5 done.').waitFor();
    assert.deepEqual(await steps(), [
      'Add your sending domain (to do)',
      'Publish its DNS records and verify them (to do)',
      'Create an API key (to do)',
      'Send your first email (to do)',
      'Add a webhook for delivery events (to do)',
    ]);
    await checkScreen(page, 'overview-onboarding');
    await checklist().getByRole('link', { name: 'Create an API key' }).click();
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
  });

  it('a domain, a test key and an email sent with it: those three tick themselves', async () => {
    const domain = await app.api.post('/v1/domains', { token, body: { domain: 'onboard.example.com' } });
    assert.equal(domain.status, 201, domain.text);
    const key = await app.api.post<{ token: string }>('/v1/api-keys', {
      token,
      body: { name: 'trial', mode: 'test' },
    });
    assert.equal(key.status, 201, key.text);
    // A test key may send from a domain not yet verified: the message is captured, not delivered.
    const sent = await app.api.post('/v1/emails', {
      token: key.body.token,
      body: { from: 'hello@onboard.example.com', to: 'someone@example.net', subject: 'Hi', text: 'Hi' },
    });
    assert.equal(sent.status, 202, sent.text);

    await page.goto(`${base}/app/overview`);
    await checklist().getByText('3 of 5 done.').waitFor();
    assert.deepEqual(await steps(), [
      'Add your sending domain (done)',
      'Publish its DNS records and verify them (to do)',
      'Create an API key (done)',
      'Send your first email (done)',
      'Add a webhook for delivery events (to do)',
    ]);
    await checklist().getByRole('link', { name: 'Publish its DNS records and verify them' }).click();
    await page.getByRole('heading', { name: 'DNS records to publish' }).waitFor();
    assert.match(new URL(page.url()).pathname, /^\/app\/domains\/.+/);
  });

  it('a test key held to the domain, made in the form; its curl snippet, run as printed, is accepted', async () => {
    await page.goto(`${base}/app/api-keys`);
    await page.getByLabel('Key name').fill('ci runner');
    await page.getByLabel('Mode').selectOption('test');
    await page.getByLabel('Permission').selectOption('sending_access');
    await page.getByLabel('Domain').selectOption({ label: 'onboard.example.com' });
    await page.getByRole('button', { name: 'Create key' }).click();
    const curl = await page.locator('[data-snippet="curl"]').innerText();
    assert.match(curl, /Bearer re_test_/);
    assert.match(curl, /delivered@simulator\.mailroom\.invalid/);
    const row = page.getByRole('row').filter({ hasText: 'ci runner' });
    await row.getByText('sending only (onboard.example.com)').waitFor();
    await row.getByText('test', { exact: true }).waitFor();
    const node = await page.locator('[data-snippet="node"]').innerText();
    assert.match(node, new RegExp(`baseUrl: '${base}'`));

    const answer = JSON.parse(execFileSync('bash', ['-c', curl], { encoding: 'utf8' })) as { id?: string };
    assert.match(answer.id ?? '', /^email_/, JSON.stringify(answer));
    const keys = await app.api.get<{
      data: { name: string; mode: string; permission: string; domainId: string | null }[];
    }>('/v1/api-keys', { token });
    const made = keys.body.data.find((k) => k.name === 'ci runner');
    assert.deepEqual(
      { mode: made?.mode, permission: made?.permission, held: made?.domainId !== null },
      { mode: 'test', permission: 'sending_access', held: true },
    );
    await checkScreen(page, 'api-keys-created');
  });

  it('test mail is marked: a badge in the list and on the detail; the overview says it counts live mail only', async () => {
    await page.goto(`${base}/app/emails`);
    const row = page.getByRole('row').filter({ hasText: 'Hello from Mailroom' });
    await row.getByText('test · captured').waitFor();
    const live = await app.api.get<{ data: { subject: string; mode: string }[] }>('/v1/emails', { token });
    assert.deepEqual(
      live.body.data.map((e) => e.mode),
      ['test', 'test'],
      'both emails of this account were sent with test keys',
    );
    await row.getByRole('link', { name: 'Hello from Mailroom' }).click();
    await page.getByText('sent with a test key: captured here, never delivered').waitFor();
    await page.goto(`${base}/app/overview`);
    await page.getByText('Live mail only: test-mode mail').waitFor();
  });
});

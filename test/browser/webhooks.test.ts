// The webhook screens in real Chromium against the whole appliance (issue 29 item 10, and the
// webhook part of item 6): creating with no event ticked is refused in words before anything is
// sent, and the URL's label says what the API accepts; the detail shows and edits the subscribed
// events, shows each attempt's request (headers with the signature, the body) and response,
// follows a test event until its attempt shows without a refresh, marks test traffic, redelivers
// an attempt and rotates the secret (shown once). Every state passes axe in both themes and
// never scrolls sideways at 360, 390 or 1,280 px.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import {
  browserUnavailable,
  checkScreen,
  collectCspViolations,
  launchChromium,
  signIn,
  sticksOutPast,
} from '../helpers/browser';
import { waitUntil } from '../helpers/wait-until';
import type { Receiver } from '../helpers/webhook-receiver';
import { startReceiver, verifySignature } from '../helpers/webhook-receiver';

const unavailable = browserUnavailable();
const DOMAIN = 'trial.example.org';

interface Detail {
  id: string;
  events: string[];
  attempts: { id: string; deliveryId: string; event: string; mode: string }[];
}

describe(
  'dashboard: webhooks (events, attempts with their requests, test event, redeliver, rotate)',
  { skip: unavailable },
  () => {
    let receiver: Receiver;
    let app: Appliance;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let base: string;
    let csp: string[];
    let token = '';
    let testKey = '';
    let hookId = '';
    let firstSecret = '';
    /** Requests the page made, as `METHOD path`. */
    const calls: string[] = [];

    before(async () => {
      receiver = await startReceiver();
      // The whole appliance: test-mode mail is captured by the hand-off, which waits for the MTA.
      app = await startAppliance({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
      base = `http://localhost:${app.ports.http}`;
      const user = await app.api.register();
      token = user.token;
      const domain = await app.api.post('/v1/domains', { token, body: { domain: DOMAIN } });
      assert.equal(domain.status, 201, domain.text);
      const key = await app.api.post<{ token: string }>('/v1/api-keys', {
        token,
        body: { name: 'trial', mode: 'test' },
      });
      assert.equal(key.status, 201, key.text);
      testKey = key.body.token;
      browser = await launchChromium();
      context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
      context.setDefaultTimeout(20_000);
      page = await context.newPage();
      csp = collectCspViolations(page);
      page.on('request', (r) => calls.push(`${r.method()} ${new URL(r.url()).pathname}`));
      await signIn(page, base, user);
    });
    after(async () => {
      await browser?.close();
      await app?.stop();
      await receiver?.close();
    });

    const detail = async (): Promise<Detail> =>
      (await app.api.get<Detail>(`/v1/webhooks/${hookId}`, { token })).body;
    const events = () => page.getByRole('group', { name: /^Events/ });
    const card = (deliveryId: string) => page.locator(`li.attempt[data-delivery="${deliveryId}"]`);

    /** No sideways scroll at 390 and 1,280 px (checkScreen does 360 px). */
    async function fits(name: string): Promise<void> {
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 800 });
        assert.deepEqual(await sticksOutPast(page, width), [], `${name}: nothing sticks out at ${width} px`);
      }
    }

    it('refuses a webhook with no event ticked, in words, before sending; the URL label says what is accepted', async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
      const url = page.getByLabel('Endpoint URL (http or https)');
      // The help text is the input's description: http and https, no credentials, private addresses.
      const described = (await url.getAttribute('aria-describedby')) ?? '';
      const help = (await page.locator(`[id="${described}"]`).textContent()) ?? '';
      assert.match(help, /http:\/\/ or https:\/\//);
      assert.match(help, /no user name or password/);
      assert.match(help, /private/);
      await url.fill(receiver.url);
      for (const box of await events().getByRole('checkbox').all()) await box.uncheck();
      const before = calls.length;
      await page.getByRole('button', { name: 'Create webhook' }).click();
      await page.getByRole('alert').filter({ hasText: 'Tick at least one event' }).waitFor();
      assert.deepEqual(
        calls.slice(before).filter((c) => c === 'POST /v1/webhooks'),
        [],
        'nothing was sent',
      );
      assert.equal((await app.api.get<{ data: unknown[] }>('/v1/webhooks', { token })).body.data.length, 0);

      await events().getByLabel('email.sent').check();
      await events().getByLabel('email.delivered').check();
      await page.getByRole('button', { name: 'Create webhook' }).click();
      await page.getByText('Signing secret, shown only once').waitFor();
      assert.equal(await page.getByRole('alert').count(), 0, 'the refusal is gone');
      firstSecret = (await page.locator('.secret code').textContent()) ?? '';
      assert.match(firstSecret, /^whsec_/);
      const list = await app.api.get<{ data: Detail[] }>('/v1/webhooks', { token });
      hookId = list.body.data[0]!.id;
      assert.deepEqual(list.body.data[0]!.events, ['email.sent', 'email.delivered']);
      await checkScreen(page, 'webhooks');
      await fits('webhooks');
    });

    it('shows the subscribed events and edits them, refusing none', async () => {
      await page.getByRole('link', { name: receiver.url }).click();
      await page.getByRole('heading', { level: 1, name: 'Webhook' }).waitFor();
      await page.locator('[data-events]').getByText('email.sent, email.delivered').waitFor();
      const picker = page.getByRole('group', { name: /Events this webhook hears/ });
      assert.equal(await picker.getByLabel('email.sent').isChecked(), true);
      assert.equal(await picker.getByLabel('email.bounced').isChecked(), false);
      for (const box of await picker.getByRole('checkbox').all()) await box.uncheck();
      const before = calls.length;
      await page.getByRole('button', { name: 'Save events' }).click();
      await page.getByRole('alert').filter({ hasText: 'Tick at least one event' }).waitFor();
      assert.ok(!calls.slice(before).some((c) => c.startsWith('PATCH')), 'nothing was sent');
      assert.deepEqual((await detail()).events, ['email.sent', 'email.delivered']);

      for (const ev of ['email.sent', 'email.delivered', 'email.bounced'])
        await picker.getByLabel(ev).check();
      await page.getByRole('button', { name: 'Save events' }).click();
      await page.getByText('Events saved').waitFor();
      await page.locator('[data-events]').getByText('email.sent, email.delivered, email.bounced').waitFor();
      assert.deepEqual((await detail()).events, ['email.sent', 'email.delivered', 'email.bounced']);
    });

    it('follows a test event until its attempt shows, without a refresh, with the request it sent', async () => {
      await page.evaluate('window.notReloaded = true');
      const detailReads = () => calls.filter((c) => c === `GET /v1/webhooks/${hookId}`).length;
      const readsBefore = detailReads();
      await page.getByRole('button', { name: 'Send a test event' }).click();
      await page.getByText('Test event queued').waitFor();
      await page.getByText(/Test event sent: the receiver answered HTTP 200/).waitFor();
      assert.equal(await page.evaluate<boolean>('window.notReloaded === true'), true);
      assert.ok(detailReads() > readsBefore, 'the screen read the endpoint again by itself');
      const got = receiver.requests.find((q) => q.headers['x-mail-event'] === 'webhook.test');
      assert.ok(got);
      const deliveryId = got.headers['x-mail-delivery-id'] as string;
      const attempt = card(deliveryId);
      await attempt.waitFor();
      await attempt.getByText('test event', { exact: true }).waitFor();
      await attempt.getByText('Request', { exact: true }).click();
      const request = await attempt.locator('pre.headers').allInnerTexts();
      assert.ok(
        request[0]?.includes(`X-Mail-Signature: ${got.headers['x-mail-signature'] as string}`),
        request[0],
      );
      assert.ok(request[0]?.includes(`X-Mail-Delivery-Id: ${deliveryId}`));
      assert.equal(request[1], got.body);
      await attempt.getByText('Response', { exact: true }).click();
      await attempt.getByText('HTTP 200 after').waitFor();
      await attempt.locator('pre.excerpt').getByText('ok').waitFor();
      assert.ok(!(await page.locator('body').innerText()).includes(firstSecret), 'the secret is never shown');
    });

    it('marks the attempts of test-mode mail with the test · captured badge', async () => {
      const sent = await app.api.post<{ id: string }>('/v1/emails', {
        token: testKey,
        body: { from: `hi@${DOMAIN}`, to: 'x@dest.test', subject: 'Trial', text: 'Hi' },
      });
      assert.equal(sent.status, 202, sent.text);
      await waitUntil(
        'the test email’s email.delivered attempt',
        async () => (await detail()).attempts.some((a) => a.event === 'email.delivered' && a.mode === 'test'),
        45_000,
      );
      await page.getByRole('button', { name: 'Refresh' }).click();
      const delivered = page.locator('li.attempt').filter({ hasText: 'email.delivered' }).first();
      await delivered.getByText('test · captured').waitFor();
      assert.equal(await delivered.getByText('test event', { exact: true }).count(), 0);
      await delivered.getByText('Request', { exact: true }).click();
      await delivered.getByText(`"mode":"test"`).waitFor();
      await delivered.getByText('Response', { exact: true }).click();
      await checkScreen(page, 'webhook-detail');
      await fits('webhook-detail');
    });

    it('redelivers an attempt: a new delivery, followed until it shows', async () => {
      const original = (await detail()).attempts.find((a) => a.event === 'webhook.test')!;
      const before = receiver.requests.length;
      await card(original.deliveryId).getByRole('button', { name: 'Redeliver' }).click();
      await page.getByText(/Redelivery of webhook\.test sent: the receiver answered HTTP 200/).waitFor();
      const again = page.locator('li.attempt').filter({ hasText: `redelivery of ${original.deliveryId}` });
      await again.waitFor();
      const newId = await again.getAttribute('data-delivery');
      assert.ok(newId && newId !== original.deliveryId);
      const got = receiver.requests.slice(before).find((q) => q.headers['x-mail-delivery-id'] === newId);
      assert.ok(got, 'the receiver got the redelivery');
      const first = receiver.requests.find((q) => q.headers['x-mail-delivery-id'] === original.deliveryId);
      assert.equal(got.body, first?.body, 'the same event body');
    });

    it('rotates the secret: the new one shown once with a copy button and a warning, and used from then on', async () => {
      page.once('dialog', (d) => void d.accept());
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      const shown = page.locator('[data-token=webhook-secret]');
      await shown.waitFor();
      const secret = (await shown.textContent()) ?? '';
      assert.match(secret, /^whsec_/);
      assert.notEqual(secret, firstSecret);
      await page.getByText('The old secret no longer verifies').waitFor();
      await page.getByRole('button', { name: 'Copy new signing secret' }).click();
      assert.equal(await page.evaluate<string>('navigator.clipboard.readText()'), secret);
      await checkScreen(page, 'webhook-secret-rotated');
      await fits('webhook-secret-rotated');
      await page.getByRole('button', { name: 'I have stored it' }).click();
      assert.equal(await shown.count(), 0, 'shown once');

      const before = receiver.requests.length;
      await page.getByRole('button', { name: 'Send a test event' }).click();
      await page.getByText(/Test event sent/).waitFor();
      const got = receiver.requests.slice(before).find((q) => q.headers['x-mail-event'] === 'webhook.test');
      assert.ok(got);
      const signature = got.headers['x-mail-signature'] as string;
      assert.ok(verifySignature(secret, signature, got.body), 'signed with the new secret');
      assert.ok(!verifySignature(firstSecret, signature, got.body), 'not with the old one');
    });

    it('kept to the CSP', () => {
      assert.deepEqual(csp, []);
    });
  },
);

// Issue 29 items 7, 8 and 6 (its "Send a test email") in a real browser against the whole
// appliance (real Haraka MX, SQLite, fake DNS, SMTP sink): a domain's receiving switched on
// through its form, the API's field errors shown under the fields, the MX record and its check;
// the try-it line of docs/getting-started.md, as the screen prints it, run with curl and
// received; a test email with a link to it; deleting a domain that sent only test mail, and the
// alternatives offered (and working) for one with live history.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { Appliance } from '../helpers/appliance';
import { REPO_ROOT, startAppliance } from '../helpers/appliance';
import {
  browserUnavailable,
  checkScreen,
  collectCspViolations,
  launchChromium,
  signIn,
  sticksOutPast,
} from '../helpers/browser';
import { publish } from '../helpers/dns-fixtures';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { waitForInbound } from '../helpers/inbound-mail';
import type { SmtpSink } from '../helpers/smtp-sink';
import { startSmtpSink } from '../helpers/smtp-sink';
import type { VerifiedDomain } from '../helpers/verified-domain';
import { addVerifiedDomain } from '../helpers/verified-domain';
import { waitUntil } from '../helpers/wait-until';

const DOMAIN = 'shop.example.com';
const MAIL_HOSTNAME = 'mx.mailroom-appliance.net';
const unavailable = browserUnavailable();

/** The try-it line of docs/getting-started.md (section 10), for example.com and port 2525. */
function documentedTryLine(): string {
  const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'getting-started.md'), 'utf8');
  const lines = doc.split('\n').filter((l) => l.startsWith("printf 'From: you@example.org"));
  assert.equal(lines.length, 1, 'getting-started.md prints the inbound try-it line once');
  return lines[0]!;
}

interface DomainBody {
  receiveEnabled: boolean;
  inboundLabel: string;
  addresses: string[];
  restrictSenders: boolean;
}

describe(
  'dashboard in a real browser: receiving, a test email, deleting a domain',
  { skip: unavailable },
  () => {
    let dns: FakeDns;
    let sink: SmtpSink;
    let app: Appliance;
    let browser: Browser;
    let page: Page;
    let base: string;
    let csp: string[];
    let token = '';
    let shop: VerifiedDomain;

    before(async () => {
      dns = await startDnsServer();
      sink = await startSmtpSink();
      app = await startAppliance({
        env: { DNS_SERVERS: dns.address, SMTP_RELAY: sink.address, MAIL_HOSTNAME },
      });
      base = `http://localhost:${app.ports.http}`;
      const user = await app.api.register();
      token = user.token;
      shop = await addVerifiedDomain(app, dns, token, DOMAIN);
      browser = await launchChromium();
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      context.setDefaultTimeout(20_000);
      page = await context.newPage();
      csp = collectCspViolations(page);
      page.on('dialog', (dialog) => void dialog.accept());
      await signIn(page, base, user);
    });
    after(async () => {
      await browser?.close();
      await app?.stop();
      await sink?.close();
      await dns?.close();
    });

    const receiving = () => page.locator('[data-section="receiving"]');
    const domainOf = async (id: string) =>
      (await app.api.get<DomainBody>(`/v1/domains/${id}`, { token })).body;

    /** No sideways scroll at a phone's 390 px and a desktop's 1280 px (checkScreen adds 360). */
    async function fitsWidths(): Promise<void> {
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 800 });
        const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
        assert.ok(
          scrollWidth <= width,
          `${scrollWidth} px wide at ${width}: ${(await sticksOutPast(page, width)).join(', ')}`,
        );
      }
    }

    it('receiving off, then on through the form; the API’s field errors show under their fields', async () => {
      await page.goto(`${base}/app/domains/${shop.id}`);
      await page.getByRole('heading', { level: 1, name: DOMAIN }).waitFor();
      await receiving().getByText(`This server refuses mail for ${DOMAIN}.`).waitFor();
      await receiving().getByText('receiving off').waitFor();
      assert.equal(await page.locator('[data-card="mx"]').count(), 0, 'no MX record while receiving is off');
      await page.locator('[data-note="mx"]').getByText('No MX record: receiving is off.').waitFor();

      await page.getByLabel(`Receive mail for ${DOMAIN}`).check();
      await page.getByLabel('Receiving host label').fill('my inbox');
      await page.getByLabel('Addresses accepted').fill('hello\nsales@shop.example.com');
      await page.getByRole('button', { name: 'Save receiving settings' }).click();
      // The API's words, under the field each is about.
      await page.locator('#label-error').getByText('must be @ (the apex) or one DNS label').waitFor();
      await page
        .locator('#addresses-error')
        .getByText('“sales@shop.example.com”: give the local part only (the part before @)')
        .waitFor();
      assert.equal(await page.getByLabel('Receiving host label').getAttribute('aria-invalid'), 'true');
      assert.equal((await domainOf(shop.id)).receiveEnabled, false, 'a refused PATCH changed nothing');

      // `@` is the apex: the form says what that replaces before anything is saved (spec rule 7).
      await page.getByLabel('Receiving host label').fill('@');
      await page
        .locator('[data-warning="apex"]')
        .getByText(`replaces wherever ${DOMAIN} receives mail now`)
        .waitFor();

      await page.getByLabel('Receiving host label').fill('inbox');
      await page.getByLabel('Addresses accepted').fill('');
      await page.getByRole('button', { name: 'Save receiving settings' }).click();
      await page.getByRole('status').getByText('Saved. Receiving is on.').waitFor();
      await receiving().getByText(`Mail to any address @inbox.${DOMAIN} is accepted`).waitFor();
      const mx = page.locator('[data-card="mx"]');
      await mx.getByText(`inbox.${DOMAIN}`, { exact: true }).waitFor();
      await mx.getByText(MAIL_HOSTNAME, { exact: true }).waitFor();
      await mx.getByText(`mail to @${DOMAIN} keeps going where it goes now`).waitFor();
      const saved = await domainOf(shop.id);
      assert.deepEqual(
        { on: saved.receiveEnabled, label: saved.inboundLabel, addresses: saved.addresses },
        { on: true, label: 'inbox', addresses: [] },
      );
    });

    it('checks the MX record: fails before it is published, passes after', async () => {
      const mx = page.locator('[data-card="mx"]');
      await mx.getByRole('button', { name: 'Check the MX record' }).click();
      await mx.locator('[data-check="mx"]').getByText('MISSING_RECORD').waitFor();
      await mx.locator('[data-check="mx"]').getByText('fail', { exact: true }).waitFor();
      const records = (await app.api.get<VerifiedDomain>(`/v1/domains/${shop.id}`, { token })).body.records;
      publish(
        dns,
        records.filter((r) => r.purpose === 'mx'),
      );
      await mx.getByRole('button', { name: 'Check the MX record' }).click();
      await mx.locator('[data-check="mx"]').getByText('pass', { exact: true }).waitFor();
      await mx.locator('[data-check="mx"]').getByText(`inbox.${DOMAIN} points to ${MAIL_HOSTNAME}`).waitFor();
      await checkScreen(page, 'domain-receiving');
      await fitsWidths();
    });

    it('prints the try-it line of getting-started.md; run as shown, the message is received', async () => {
      const shown = (await page.locator('[data-snippet="inbound-curl"]').innerText()).trim();
      const documented = documentedTryLine()
        .replaceAll('hello@inbox.example.com', `hello@inbox.${DOMAIN}`)
        .replace('smtp://127.0.0.1:2525 ', `smtp://127.0.0.1:${app.ports.smtp} `);
      assert.equal(shown, documented, 'the screen and docs/getting-started.md print the same line');
      // The MX's view of domains reloads every 2 s: receiving was switched on by the form above.
      await new Promise((r) => setTimeout(r, 2_500));
      const out = execFileSync('bash', ['-c', shown], { encoding: 'utf8' });
      assert.equal(out.trim(), 'accepted');
      const m = await waitForInbound(app, token, (x) => x.subject === 'Hello inbound');
      assert.equal(m.domainId, shop.id);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inbound' }).click();
      await page.getByRole('link', { name: 'Hello inbound' }).waitFor();
    });

    it('sends a test email from the domain and links to it: test mode, to the simulator', async () => {
      await page.goto(`${base}/app/domains/${shop.id}`);
      await page.getByRole('button', { name: 'Send a test email' }).click();
      const result = page.locator('[data-result="test-email"]');
      await result
        .getByText(`Test email queued from test@${DOMAIN} to delivered@simulator.mailroom.invalid.`)
        .waitFor();
      await checkScreen(page, 'domain-test-email');
      await fitsWidths();
      await result.getByRole('link', { name: 'Open the test email' }).click();
      await page.getByRole('heading', { level: 1, name: `Test email from ${DOMAIN}` }).waitFor();
      await page.getByText('test · captured').first().waitFor();
      const id = new URL(page.url()).pathname.split('/').pop() ?? '';
      const email = await app.api.get<{ mode: string; recipients: { email: string }[] }>(`/v1/emails/${id}`, {
        token,
      });
      assert.equal(email.body.mode, 'test');
      assert.deepEqual(
        email.body.recipients.map((r) => r.email),
        ['delivered@simulator.mailroom.invalid'],
      );
      assert.equal(sink.messages.length, 0, 'nothing reached the outside world');
    });

    it('deletes a domain that has sent only test mail', async () => {
      const trial = await app.api.post<{ id: string }>('/v1/domains', {
        token,
        body: { domain: 'trial.example.com' },
      });
      assert.equal(trial.status, 201, trial.text);
      await page.goto(`${base}/app/domains/${trial.body.id}`);
      await page.getByRole('button', { name: 'Send a test email' }).click();
      await page.locator('[data-result="test-email"]').waitFor();
      await page.getByRole('button', { name: 'Delete domain' }).click();
      await page.getByRole('heading', { level: 1, name: 'Domains' }).waitFor();
      const gone = await app.api.get(`/v1/domains/${trial.body.id}`, { token });
      assert.equal(gone.status, 404);
    });

    it('a domain with live history cannot be deleted: the screen says what to do instead, and does it', async () => {
      const key = await app.api.post<{ id: string; token: string }>('/v1/api-keys', {
        token,
        body: { name: 'shop server', permission: 'sending_access', domainId: shop.id },
      });
      assert.equal(key.status, 201, key.text);
      const sent = await app.api.post('/v1/emails', {
        token: key.body.token,
        body: { from: `orders@${DOMAIN}`, to: 'buyer@dest.test', subject: 'Live', text: 'x' },
      });
      assert.equal(sent.status, 202, sent.text);

      await page.goto(`${base}/app/domains/${shop.id}`);
      await page.getByRole('button', { name: 'Delete domain' }).click();
      const card = page.locator('[data-card="delete-refused"]');
      await card
        .getByRole('heading', { name: `${DOMAIN} cannot be deleted: it has sent live mail` })
        .waitFor();
      await card.getByText('its messages, their timelines and statistics refer to it').waitFor();
      await card.getByRole('button', { name: 'Revoke shop server' }).waitFor();
      await checkScreen(page, 'domain-delete-refused');
      await fitsWidths();

      await card.getByRole('button', { name: 'Turn receiving off' }).click();
      await card
        .getByRole('status')
        .getByText(`Receiving is off: this server now refuses mail for ${DOMAIN}.`)
        .waitFor();
      assert.equal((await domainOf(shop.id)).receiveEnabled, false);
      await receiving().getByText('receiving off').waitFor();

      await card.getByRole('button', { name: 'Revoke shop server' }).click();
      await card.getByRole('status').getByText('“shop server” is revoked.').waitFor();
      const keys = await app.api.get<{ data: { id: string; revokedAt: string | null }[] }>('/v1/api-keys', {
        token,
      });
      assert.ok(
        keys.body.data.find((k) => k.id === key.body.id)?.revokedAt,
        'the key held to the domain is revoked',
      );
      await card.getByText('No key is held to this domain alone.').waitFor();

      // Its records removed at the DNS provider, the check on the panel takes its verification away.
      for (const r of shop.records.filter((x) => x.purpose === 'spf' || x.purpose === 'dkim'))
        dns.remove(r.name, 'TXT');
      await card.getByRole('button', { name: 'Check DNS now' }).click();
      await card
        .getByRole('status')
        .getByText(`${DOMAIN} is now FAILED: it refuses mail until it verifies again.`)
        .waitFor();
      const refused = await app.api.post<{ error: { code: string } }>('/v1/emails', {
        token,
        body: { from: `orders@${DOMAIN}`, to: 'buyer@dest.test', subject: 'After', text: 'x' },
      });
      assert.equal(refused.body.error.code, 'DOMAIN_NOT_VERIFIED', 'it sends no more');

      await card.getByRole('button', { name: `Keep ${DOMAIN}` }).click();
      await waitUntil('the panel closed', async () => (await card.count()) === 0);
      assert.equal((await app.api.get(`/v1/domains/${shop.id}`, { token })).status, 200, 'the domain stays');
    });

    it('kept to the CSP throughout', () => {
      assert.deepEqual(csp, []);
    });
  },
);

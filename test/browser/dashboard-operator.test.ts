// Issue 29 item 12 in a real browser: the Operator screen's forms (no window.prompt). Limits
// are validated in the form (a word, a number above the API's bound) before anything is sent,
// an empty field is the platform default; suspending and reinstating need a reason, said in the
// form; the API's refusal (suspending oneself) reads as words in the form; the audit log below
// refreshes after each action and names actors and resources by their names (the operator's
// email, "CLI (<login user>)", the account's email), not their ids.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { invokingUser } from '../../src/config';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import {
  browserUnavailable,
  checkScreen,
  collectCspViolations,
  launchChromium,
  sticksOutPast,
} from '../helpers/browser';
import { runCtl } from '../helpers/ctl';

const unavailable = browserUnavailable();

interface ShownAccount {
  readonly status: string;
  readonly suspensionReason: string | null;
  readonly emailsPerHour: number | null;
  readonly emailsPerDay: number | null;
}

describe('dashboard in a real browser: the operator screen', { skip: unavailable }, () => {
  let app: Appliance;
  let browser: Browser;
  let context: BrowserContext;
  let op: Page;
  let csp: string[];
  let base: string;
  let operator: { email: string; password: string; token: string };
  let customer: { email: string };

  async function account(email: string): Promise<ShownAccount> {
    const shown = await runCtl(app.env, ['accounts', 'show', email]);
    assert.equal(shown.code, 0, shown.stderr);
    return JSON.parse(shown.stdout) as ShownAccount;
  }

  /** The audit table's rows naming this action. */
  const auditRows = (action: string): Locator =>
    op.getByRole('table', { name: 'Audit log' }).getByRole('row').filter({ hasText: action });

  /**
   * At 390 and 1,280 px the page does not scroll sideways (wide tables scroll in their own box)
   * and the open form fits the viewport whole.
   */
  async function nothingSticksOut(form: Locator): Promise<void> {
    for (const width of [390, 1280]) {
      await op.setViewportSize({ width, height: 800 });
      const wide = await op.evaluate<number>('document.documentElement.scrollWidth');
      if (wide > width)
        assert.fail(`${wide} px wide at ${width} px: ${(await sticksOutPast(op, width)).join(', ')}`);
      const box = await form.boundingBox();
      assert.ok(
        box && box.x >= 0 && box.x + box.width <= width,
        `the form fits ${width} px: ${JSON.stringify(box)}`,
      );
    }
  }

  before(async () => {
    app = await startAppliance({ processes: ['api'] });
    base = `http://localhost:${app.ports.http}`;
    operator = await app.api.register('operator@example.com');
    customer = await app.api.register('customer@example.com');
    const granted = await runCtl(app.env, ['accounts', 'grant-operator', operator.email]);
    assert.equal(granted.code, 0, granted.stderr);
    // An action by ctl first: the audit log names its login user.
    const limited = await runCtl(app.env, ['accounts', 'limits', customer.email, '--per-hour', '50']);
    assert.equal(limited.code, 0, limited.stderr);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(20_000);
    op = await context.newPage();
    csp = collectCspViolations(op);
    await op.goto(`${base}/app/signin`);
    await op.getByLabel('Email').fill(operator.email);
    await op.getByLabel('Password').fill(operator.password);
    await op.getByRole('button', { name: 'Sign in' }).click();
    await op.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Operator' }).click();
    await op.getByRole('table', { name: 'Audit log' }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('names the CLI operator by its login user and accounts by their email in the audit log', async () => {
    const row = auditRows('settings.limits_updated').first();
    await row.waitFor();
    const text = (await row.textContent()) ?? '';
    assert.match(text, new RegExp(`CLI \\(${invokingUser(app.env)}\\)`));
    assert.match(text, /account customer@example\.com/);
    assert.doesNotMatch(text, /usr_|cli:/, 'no raw ids');
  });

  it('sets limits in a form: words and numbers too large are refused in the form, empty is the default', async () => {
    const row = op.locator(`[data-account="${customer.email}"]`);
    await row.getByRole('button', { name: `Set limits of ${customer.email}` }).click();
    const form = op.getByRole('form', { name: `Sending limits of ${customer.email}` });
    const perHour = form.getByLabel('Emails per hour');
    assert.equal(await perHour.inputValue(), '50', 'the current override is filled in');
    await perHour.fill('12abc');
    await form.getByLabel('Emails per day').fill('20000000');
    await form.getByRole('button', { name: 'Save limits' }).click();
    await form
      .getByText('Emails per hour must be a whole number, or empty for the platform default.')
      .waitFor();
    await form.getByText('Emails per day can be at most 10,000,000.').waitFor();
    assert.equal(await perHour.getAttribute('aria-invalid'), 'true');
    assert.equal((await account(customer.email)).emailsPerHour, 50, 'nothing was sent');
    await checkScreen(op, 'operator-limits');
    await nothingSticksOut(form);

    await perHour.fill('40');
    await form.getByLabel('Emails per day').fill('');
    await form.getByRole('button', { name: 'Save limits' }).click();
    await op
      .getByRole('status')
      .filter({ hasText: `The limits of ${customer.email} are saved.` })
      .waitFor();
    const saved = await account(customer.email);
    assert.equal(saved.emailsPerHour, 40);
    assert.equal(saved.emailsPerDay, null, 'empty: the platform default');
    await row.getByText('(set by an operator)').waitFor();
    assert.match((await row.textContent()) ?? '', /40 \/ \d+/);
    // The audit log refreshed: the new entry names the operator by its email.
    const entry = auditRows('settings.limits_updated').filter({ hasText: `${operator.email} (operator)` });
    await entry.waitFor();
    assert.match((await entry.textContent()) ?? '', /account customer@example\.com/);
  });

  it('suspends with a reason, which the form asks for; the audit log shows it', async () => {
    const row = op.locator(`[data-account="${customer.email}"]`);
    await row.getByRole('button', { name: `Suspend ${customer.email}` }).click();
    const form = op.getByRole('form', { name: `Suspend ${customer.email}` });
    await form.getByRole('button', { name: 'Suspend account' }).click();
    await form
      .getByText(`Give a reason to suspend ${customer.email}: it is kept in the audit log.`)
      .waitFor();
    assert.equal((await account(customer.email)).status, 'ACTIVE');
    await form.getByLabel('Reason').fill('Bounce rate over 10 %');
    await form.getByRole('button', { name: 'Suspend account' }).click();
    await op
      .getByRole('status')
      .filter({ hasText: `${customer.email} is suspended.` })
      .waitFor();
    await row.getByText('SUSPENDED').waitFor();
    await row.getByText('Bounce rate over 10 %').waitFor();
    const entry = auditRows('user.suspended').first();
    await entry.waitFor();
    const text = (await entry.textContent()) ?? '';
    assert.match(text, /operator@example\.com \(operator\)/);
    assert.match(text, /account customer@example\.com/);
    assert.match(text, /Reason: Bounce rate over 10 %/);
  });

  it('reinstating needs a reason too; then the account is active and the entry is listed', async () => {
    const row = op.locator(`[data-account="${customer.email}"]`);
    await row.getByRole('button', { name: `Reinstate ${customer.email}` }).click();
    const form = op.getByRole('form', { name: `Reinstate ${customer.email}` });
    await form.getByText('Suspended: Bounce rate over 10 %.').waitFor();
    await form.getByLabel('Reason').fill('   ');
    await form.getByRole('button', { name: 'Reinstate account' }).click();
    await form
      .getByText(`Give a reason to reinstate ${customer.email}: it is kept in the audit log.`)
      .waitFor();
    assert.equal(await form.getByLabel('Reason').getAttribute('aria-invalid'), 'true');
    assert.equal((await account(customer.email)).status, 'SUSPENDED');
    await checkScreen(op, 'operator-reinstate');
    await nothingSticksOut(form);
    await form.getByLabel('Reason').fill('Bounces explained: a stale list, removed');
    await form.getByRole('button', { name: 'Reinstate account' }).click();
    await op
      .getByRole('status')
      .filter({ hasText: `${customer.email} is reinstated.` })
      .waitFor();
    await row.getByText('ACTIVE').waitFor();
    assert.equal((await account(customer.email)).status, 'ACTIVE');
    const entry = auditRows('user.reinstated').first();
    await entry.waitFor();
    assert.match((await entry.textContent()) ?? '', /Reason: Bounces explained: a stale list, removed/);
  });

  it("shows the API's refusal in words inside the form (an operator cannot suspend itself)", async () => {
    const row = op.locator(`[data-account="${operator.email}"]`);
    await row.getByRole('button', { name: `Suspend ${operator.email}` }).click();
    const form = op.getByRole('form', { name: `Suspend ${operator.email}` });
    await form.getByLabel('Reason').fill('testing');
    await form.getByRole('button', { name: 'Suspend account' }).click();
    const alert = form.getByRole('alert');
    await alert.waitFor();
    assert.equal(((await alert.textContent()) ?? '').trim(), 'An operator cannot suspend its own account');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });
  });

  it("filters the audit log by an actor's email, as the table names it", async () => {
    const filter = op.getByRole('form', { name: 'Filter the audit log' });
    await filter.getByLabel('Actor').fill(operator.email);
    await filter.getByRole('button', { name: 'Filter' }).click();
    // The unfiltered table stays on screen until the filtered load starts (and none is shown while
    // it loads): first the CLI's row goes, then the filtered table comes.
    await auditRows('settings.limits_updated').filter({ hasText: 'CLI (' }).waitFor({ state: 'detached' });
    await auditRows('user.reinstated').first().waitFor();
    // The Actor column (the third) of every row: the operator, signed in or acting.
    const actors = await op
      .getByRole('table', { name: 'Audit log' })
      .locator('tbody tr td:nth-child(3)')
      .allTextContents();
    assert.ok(actors.length > 0);
    for (const actor of actors) assert.match(actor, /^operator@example\.com( \(operator\))?$/, actor);
  });

  it("Settings shows the own-limit ceilings the API enforces, and a new account's first-day allowance", async () => {
    await op.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await op.getByRole('heading', { name: 'Sending limits' }).waitFor();
    // Defaults: 100 an hour, 1,000 a day; 20 an hour in a new account's first 24 hours.
    await op.getByText('For its first 24 hours a new account may send 20 an hour; then 100.').waitFor();
    const perHour = op.getByLabel(/^Own limit per hour/);
    const shown = Number(await perHour.getAttribute('max'));
    assert.match(
      (await op.getByText(/^Own limit per hour/).textContent()) ?? '',
      new RegExp(`at most ${shown}\\)`),
    );
    const above = await app.api.patch<{ error: { code: string; details: { max: number } } }>(
      '/v1/settings/limits',
      {
        token: operator.token,
        body: { emailsPerHour: shown + 1 },
      },
    );
    assert.equal(above.status, 403, above.text);
    assert.equal(above.body.error.details.max, shown, 'the ceiling shown is the one the API enforces');
    const at = await app.api.patch('/v1/settings/limits', {
      token: operator.token,
      body: { emailsPerHour: shown },
    });
    assert.equal(at.status, 200, at.text);
    const cleared = await app.api.patch('/v1/settings/limits', {
      token: operator.token,
      body: { emailsPerHour: null },
    });
    assert.equal(cleared.status, 200, cleared.text);
    assert.equal(Number(await op.getByLabel(/^Own limit per day/).getAttribute('max')), 1000);
  });

  it('kept to the CSP', () => {
    assert.deepEqual(csp, []);
  });
});

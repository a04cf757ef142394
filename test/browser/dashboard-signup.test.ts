// Issue 28 item 1 in a real browser: under SIGNUP_MODE=invite the first account of an empty
// install signs up on the dashboard; the next person without an invitation sees the API's
// INVITATION_REQUIRED message; an operator invites an address on the Operator screen and the
// link (`/app/signup#invite=<token>`) lets that person sign up once; a link of the old form
// (`/signup#invite=…`, before issue 30) is redirected with its fragment.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import { browserUnavailable, collectCspViolations, launchChromium } from '../helpers/browser';
import { runCtl } from '../helpers/ctl';

const unavailable = browserUnavailable();
const PASSWORD = 'a long enough password';

describe('dashboard sign-up by invitation', { skip: unavailable }, () => {
  let app: Appliance;
  let base: string;
  let browser: Browser;
  before(async () => {
    app = await startAppliance({ processes: ['api'], env: { SIGNUP_MODE: 'invite' } });
    base = `http://localhost:${app.ports.http}`;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  async function signUp(page: Page, url: string, email: string): Promise<void> {
    await page.goto(url);
    await page.getByRole('heading', { level: 1, name: 'Create a Mailroom account' }).waitFor();
    await page.getByLabel('Name').fill(email);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
  }

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

  it('first account signs up; a stranger is told to ask for an invitation; an invited one signs up', async () => {
    await withPage(async (page) => {
      await signUp(page, `${base}/app/signup`, 'owner@example.com');
      await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    });
    await withPage(async (page) => {
      await signUp(page, `${base}/app/signup`, 'stranger@example.com');
      await page.getByRole('alert').filter({ hasText: 'needs an invitation' }).waitFor();
      assert.match((await page.getByRole('alert').textContent()) ?? '', /ask its operator/);
    });

    const granted = await runCtl(app.env, ['accounts', 'grant-operator', 'owner@example.com']);
    assert.equal(granted.code, 0, granted.stderr);
    let link = '';
    await withPage(async (op) => {
      await op.goto(`${base}/app/signin`);
      await op.getByLabel('Email').fill('owner@example.com');
      await op.getByLabel('Password').fill(PASSWORD);
      await op.getByRole('button', { name: 'Sign in' }).click();
      await op.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Operator' }).click();
      await op.getByRole('heading', { level: 2, name: 'Invitations' }).waitFor();
      const invite = op.getByRole('form', { name: 'Invite someone' });
      await invite.getByLabel('Email').fill('guest@example.com');
      await invite.getByRole('button', { name: 'Invite' }).click();
      const shown = await op
        .getByRole('status')
        .filter({ hasText: 'guest@example.com' })
        .locator('code')
        .textContent();
      const url = new URL(shown ?? '');
      assert.equal(url.pathname, '/app/signup');
      link = url.hash;
      assert.match(link, /^#invite=inv_/);
      await op.getByRole('button', { name: 'Revoke the invitation of guest@example.com' }).waitFor();
    });

    await withPage(async (page) => {
      await signUp(page, `${base}/app/signup${link}`, 'guest@example.com');
      await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    });
    // The old form of the link: the redirect to /app/signup keeps the fragment, so the token is
    // read (and refused as used), not missing (which would be INVITATION_REQUIRED).
    await withPage(async (page) => {
      await signUp(page, `${base}/signup${link}`, 'guest2@example.com');
      assert.equal(new URL(page.url()).pathname, '/app/signup');
      await page.getByRole('alert').filter({ hasText: 'This invitation is not valid' }).waitFor();
    });
  });
});

// Real Chromium for the dashboard tests (issue 19): Debian's /usr/bin/chromium driven by
// playwright-core (Playwright's own browser download needs a CDN this appliance must not need).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { REPO_ROOT } from './appliance';
import { skipLoudly } from './missing-prerequisite';

export const CHROMIUM = '/usr/bin/chromium';
export const SCREENSHOTS = path.join(REPO_ROOT, 'docs', 'dashboard');

/**
 * Why the browser tests cannot run here, or undefined when they can: without Chromium they
 * skip loudly, or fail under CI=true (`.ci/run` installs it).
 */
export function browserUnavailable(): string | undefined {
  if (fs.existsSync(CHROMIUM)) return undefined;
  return skipLoudly('the dashboard browser tests', `${CHROMIUM} is missing`, [
    "Install Debian's chromium to run them:  apt-get install chromium",
  ]);
}

export function launchChromium(): Promise<Browser> {
  // --no-sandbox: the tests run as root in a container, where Chromium's sandbox cannot start.
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}

/** Serious or critical axe violations of the page as it is now (in both colour schemes, by the caller). */
export async function seriousViolations(page: Page): Promise<string[]> {
  // The preview iframe is sandboxed without scripts (issue 19), so axe cannot run inside it (and
  // would wait for it): its content is the email's, not the dashboard's.
  const result = await new AxeBuilder({ page }).exclude('iframe[sandbox]').analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * The widest culprits of a page wider than `width` px: up to five elements reaching past it whose
 * children do not (tag, class and right edge), so a failure names what to fix.
 */
export async function sticksOutPast(page: Page, width: number): Promise<string[]> {
  const edge = width + 1;
  return page.evaluate<string[]>(`[...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().right > ${edge} && ![...e.children].some((c) => c.getBoundingClientRect().right > ${edge}))
    .slice(0, 5).map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))`);
}

/**
 * For each colour scheme: no serious/critical axe violation, then a screenshot into
 * docs/dashboard/<name>-<scheme>.png (docs/dashboard.md shows them).
 */
export async function checkScreen(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  // 360 px wide (a small phone): the page itself never scrolls sideways; wide tables scroll in their box.
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: 360, height: 740 });
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth');
  if (overflow > 360) {
    const culprits = await sticksOutPast(page, 360);
    assert.fail(`${name}: ${overflow} px wide at a 360 px viewport: ${culprits.join(', ')}`);
  }
  if (viewport) await page.setViewportSize(viewport);
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    assert.deepEqual(await seriousViolations(page), [], `${name} (${colorScheme}): accessibility`);
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${colorScheme}.png`), fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * Console messages in which Chromium reports a Content-Security-Policy refusal by the dashboard.
 * The email preview's own policy refusing the email's remote content is the point of that policy,
 * so refusals in a preview document are not counted.
 */
export function collectCspViolations(page: Page): string[] {
  const found: string[] = [];
  page.on('console', (msg) => {
    const text = msg.text();
    if (!/Content Security Policy|Refused to/i.test(text)) return;
    // The preview's own policy (default-src 'none') refusing the email's content: its purpose.
    if (msg.location().url.includes('/preview?') || text.includes(`"default-src 'none'"`)) return;
    found.push(`${text} (${msg.location().url})`);
  });
  return found;
}

/** Signs in through the dashboard's own form at `base` and waits for the overview it lands on. */
export async function signIn(
  page: Page,
  base: string,
  user: { readonly email: string; readonly password: string },
): Promise<void> {
  await page.goto(`${base}/app/signin`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
}

// dashboard-load (issue 19): the dashboard's first load on loopback with a cold cache, in real
// Chromium (playwright-core, Debian's /usr/bin/chromium): navigation start → the overview's data
// rendered (its chart, rates, quota and health signals), measured in the page by
// performance.now(), whose origin is the navigation start. Each run is a new browser context
// (empty cache, no service worker), signed in by its session cookie. Also the JavaScript shipped,
// gzip -9. Budgets: < 1 s to interactive; ≤ 150 KB gzip. Reported, not a timed test.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Browser } from 'playwright-core';
import { chromium } from 'playwright-core';
import { startAppliance } from '../test/helpers/appliance';
import { BENCH_ENV, fmt, fmtSpread, log, REPO, spread, WORK } from './lib';
import type { Options, Section } from './types';

const CHROMIUM = '/usr/bin/chromium';
const RUNS = 7;
const LOAD_BUDGET_MS = 1000;
const JS_BUDGET_KB = 150;

/** Resolves in the page when the overview's data is on screen: performance.now() at that moment. */
const RENDERED = `new Promise((resolve) => {
  const done = () => {
    if (!document.querySelector('[data-ready=overview] .chart canvas')) return false;
    resolve(performance.now());
    return true;
  };
  if (!done()) new MutationObserver((_, o) => { if (done()) o.disconnect(); })
    .observe(document, { subtree: true, childList: true });
})`;

function jsGzipBytes(): { files: number; raw: number; gzip: number } {
  const dir = path.join(REPO, 'web', 'dist', 'assets');
  let raw = 0;
  let gzip = 0;
  let files = 0;
  for (const name of fs.readdirSync(dir).filter((n) => n.endsWith('.js'))) {
    const bytes = fs.readFileSync(path.join(dir, name));
    files++;
    raw += bytes.length;
    gzip += zlib.gzipSync(bytes, { level: 9 }).length;
  }
  return { files, raw, gzip };
}

export async function dashboardLoad(_opts: Options): Promise<Section> {
  const js = jsGzipBytes();
  const jsKb = js.gzip / 1024;
  const jsLine = `JavaScript shipped: ${js.files} file(s), ${fmt(js.raw / 1024, 1)} KB, **${fmt(jsKb, 1)} KB gzip -9** (budget ≤ ${JS_BUDGET_KB} KB: ${jsKb <= JS_BUDGET_KB ? 'met' : '**missed**'}).`;
  if (!fs.existsSync(CHROMIUM)) {
    return {
      id: 'dashboard-load',
      title: 'Dashboard first load',
      lines: [jsLine, '', `First load not measured: ${CHROMIUM} is missing (apt-get install chromium).`],
      figures: {},
    };
  }
  const dataDir = fs.mkdtempSync(path.join(WORK, 'data-'));
  const logFile = path.join(WORK, `appliance-dashboard-load.log`);
  const app = await startAppliance({ processes: ['api'], dataDir, logFile, env: BENCH_ENV });
  let browser: Browser | undefined;
  try {
    const account = await app.api.register();
    const base = `http://localhost:${app.ports.http}`;
    // --no-sandbox: benchmarks run as root in a container.
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    const rendered: number[] = [];
    const interactive: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext();
      await context.addCookies([{ name: 'mr_session', value: account.token, url: base }]);
      const page = await context.newPage();
      await page.goto(`${base}/app/overview`, { waitUntil: 'commit' });
      rendered.push(await page.evaluate<number>(RENDERED));
      interactive.push(
        await page.evaluate<number>(`performance.getEntriesByType('navigation')[0].domInteractive`),
      );
      await context.close();
    }
    // The first run also starts the browser's own machinery: reported, the median judged.
    const s = spread(rendered);
    log(`dashboard-load: overview rendered ${fmtSpread(s)} ms; JS ${fmt(jsKb, 1)} KB gzip`);
    return {
      id: 'dashboard-load',
      title: 'Dashboard first load (cold cache, loopback)',
      lines: [
        `Real Chromium ${browser.version()} on loopback, api process only, a new browser context per run (cold cache), signed in by cookie; ${RUNS} runs. Measured in the page from navigation start to the overview's data rendered (chart drawn, rates, quota, health signals: three /v1 requests after the app's own files).`,
        '',
        '| measure | median (min – max) ms | budget |',
        '|---|---|---|',
        `| navigation start → overview data rendered | ${fmtSpread(s)} | < ${LOAD_BUDGET_MS} ms: ${s.median < LOAD_BUDGET_MS ? 'met' : '**missed**'} |`,
        `| navigation start → DOM interactive | ${fmtSpread(spread(interactive))} | |`,
        '',
        jsLine,
      ],
      figures: { 'dashboard overview rendered (ms)': s },
    };
  } finally {
    await browser?.close();
    await app.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(logFile, { force: true });
  }
}

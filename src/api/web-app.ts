import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type Koa from 'koa';
import type { AppState } from '../http/context';

/** Where `npm run build` puts the dashboard (vite build of web/): the repository's web/dist. */
export const WEB_DIST = path.resolve(__dirname, '..', '..', '..', 'web', 'dist');

/**
 * The dashboard's policy (issue 19): only our own files, no inline script or style, never framed.
 * Email previews come from /v1/…/preview, a same-origin frame with its own stricter policy.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "frame-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** The dashboard's one prefix (issue 30): vite builds it with `base: '/app/'` (web/vite.config.mjs). */
export const DASHBOARD_PREFIX = '/app';

/**
 * The dashboard's screens, as its router declares them (web/src/app.tsx; a unit test holds the
 * two lists equal), `:id` standing for one id segment. One of them under the prefix is answered
 * index.html with 200, so a reload or a shared link lands on its screen; any other path under the
 * prefix gets index.html too, with 404, and the app shows "Page not found" in its own layout
 * (issue 29 item 9). `assets/` is left out: a missing asset is the API's 404, not a page.
 */
export const DASHBOARD_SCREENS: readonly string[] = [
  '/',
  '/signin',
  '/signup',
  '/overview',
  '/emails',
  '/emails/:id',
  '/domains',
  '/domains/:id',
  '/api-keys',
  '/webhooks',
  '/webhooks/:id',
  '/suppressions',
  '/inbound',
  '/inbound/:id',
  '/settings',
  '/account',
  '/operator',
];
const SCREEN_PATH = new RegExp(
  `^/app(?:${DASHBOARD_SCREENS.map((s) => (s === '/' ? '' : s.replace(':id', '[\\w-]{1,64}'))).join('|')})/?$`,
);
const ASSETS = `${DASHBOARD_PREFIX}/assets/`;

/**
 * The screens the dashboard had at the root before issue 30 whose first segment no API has:
 * an old bookmark or link (`/signin`, `/signup#invite=…`, `/operator`) is redirected to the same
 * path under `/app`, and the browser keeps the fragment. The screens at Resend paths (`/emails`,
 * `/domains`, `/api-keys`, `/webhooks`, `/suppressions`) are the Resend API's alone: no redirect.
 */
export const MOVED_PAGES = ['signin', 'signup', 'overview', 'inbound', 'settings', 'account', 'operator'];
const MOVED_PATH = new RegExp(`^/(?:${MOVED_PAGES.join('|')})(?:/[\\w-]{1,64}){0,2}/?$`);

const TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
};

interface Asset {
  readonly body: Buffer;
  readonly type: string;
  readonly etag: string;
}

function asset(file: string, type: string): Asset {
  const body = fs.readFileSync(file);
  return { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
}

/** Reads the built app once, at start: a few hundred KB, and no file-system path from a request. */
function loadBuild(dir: string): { index: Asset; assets: Map<string, Asset> } | undefined {
  const indexFile = path.join(dir, 'index.html');
  if (!fs.existsSync(indexFile)) return undefined;
  const assets = new Map<string, Asset>();
  const assetDir = path.join(dir, 'assets');
  for (const name of fs.existsSync(assetDir) ? fs.readdirSync(assetDir) : []) {
    const type = TYPES[path.extname(name)];
    if (type) assets.set(`${DASHBOARD_PREFIX}/assets/${name}`, asset(path.join(assetDir, name), type));
  }
  return { index: asset(indexFile, 'text/html; charset=utf-8'), assets };
}

/** Where an old dashboard path, `/` or the bare prefix goes; undefined for any other path. */
function redirectTarget(p: string): string | undefined {
  if (p === '/' || p === DASHBOARD_PREFIX) return `${DASHBOARD_PREFIX}/`;
  return MOVED_PATH.test(p) ? `${DASHBOARD_PREFIX}${p}` : undefined;
}

/**
 * Serves the dashboard under `/app/` (issues 19 and 30): hashed assets cached for a year,
 * index.html revalidated each time, all under the strict CSP; `/` and the old screen paths
 * redirect there. Decided by the path alone, never by the request's headers. Runs after every
 * route group, so it only sees GET/HEAD requests no route took; it authenticates nothing (the
 * SPA's data comes from /v1 with the session cookie).
 */
export function webApp(dir: string = WEB_DIST): Koa.Middleware<AppState> {
  const build = loadBuild(dir);
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      await next();
      return;
    }
    const target = redirectTarget(ctx.path);
    if (target !== undefined) {
      ctx.status = 302;
      ctx.set('Location', ctx.querystring ? `${target}?${ctx.querystring}` : target);
      return;
    }
    const inAssets = ctx.path.startsWith(ASSETS);
    const file = inAssets ? build?.assets.get(ctx.path) : undefined;
    if (file === undefined && (inAssets || !ctx.path.startsWith(`${DASHBOARD_PREFIX}/`))) {
      await next();
      return;
    }
    ctx.set('Content-Security-Policy', DASHBOARD_CSP);
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('X-Frame-Options', 'DENY');
    if (!build) {
      ctx.status = 503;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body =
        'The dashboard is not built: run `npm run build` (it builds web/ into web/dist), then restart.\n';
      return;
    }
    if (file === undefined && !SCREEN_PATH.test(ctx.path)) {
      ctx.set('Cache-Control', 'no-cache');
      ctx.status = 404;
      ctx.type = build.index.type;
      ctx.body = build.index.body;
      return;
    }
    const served = file ?? build.index;
    ctx.set('Cache-Control', file ? 'public, max-age=31536000, immutable' : 'no-cache');
    ctx.set('ETag', served.etag);
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.type = served.type;
    ctx.body = served.body;
  };
}

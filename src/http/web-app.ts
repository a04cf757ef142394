import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type Koa from 'koa';
import type { AppState } from './context';

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

/**
 * The SPA's own top-level paths, answered with index.html so a reload or a shared link
 * lands on its screen. An allow-list, matched case-sensitively, rather than "anything
 * outside /v1": a fallback for every unknown path would answer 200 to `/V1/EMAILS` or
 * `/x/../v1/emails`, which the route-auth walk (test/security/route-auth.test.ts)
 * rightly expects to be 401 or 404.
 */
const SCREENS = new Set([
  'signin',
  'signup',
  'overview',
  'emails',
  'domains',
  'api-keys',
  'webhooks',
  'suppressions',
  'inbound',
  'settings',
  'account',
  'operator',
]);
const SCREEN_PATH = /^\/([a-z-]{1,20})(?:\/[\w-]{1,64}){0,2}\/?$/;

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
    if (type) assets.set(`/assets/${name}`, asset(path.join(assetDir, name), type));
  }
  return { index: asset(indexFile, 'text/html; charset=utf-8'), assets };
}

function isScreen(p: string): boolean {
  if (p === '/') return true;
  const m = SCREEN_PATH.exec(p);
  return m?.[1] !== undefined && SCREENS.has(m[1]);
}

/**
 * Serves the dashboard at `/` (issue 19): hashed assets cached for a year, index.html
 * revalidated each time, all under the strict CSP. Runs after every route group, so it only
 * sees GET/HEAD requests no route took; it authenticates nothing (the SPA's data comes from
 * /v1 with the session cookie), and answers only the screen paths and the built assets.
 */
export function webApp(dir: string = WEB_DIST): Koa.Middleware<AppState> {
  const build = loadBuild(dir);
  return async (ctx, next) => {
    const file = ctx.path.startsWith('/assets/') ? build?.assets.get(ctx.path) : undefined;
    const mine =
      (ctx.method === 'GET' || ctx.method === 'HEAD') && (file !== undefined || isScreen(ctx.path));
    if (!mine) {
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

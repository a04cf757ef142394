import Router from '@koa/router';
import { z } from 'zod';
import { authenticate } from '../../http/authenticate';
import { readBody, readRawBody } from '../../http/body';
import type { ApiDeps, AppState } from '../../http/context';
import { requestActor, requireAuth } from '../../http/context';
import { isAppError } from '../../shared/app-error';
import { hasControlChars } from '../../shared/text';
import { invalidLogo, logoTooLarge } from './branding.errors';
import {
  getBranding,
  LOGO_MAX_BYTES,
  publicLogo,
  removeLogo,
  setFooter,
  uploadLogo,
} from './branding.usecases';
import { LOGO_EXTENSION } from './logo-type';

/** Footer text: any characters but the C0 controls (NUL included) other than tab and line breaks. */
const footerPart = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => !hasControlChars(s.replace(/[\t\r\n]/g, ' ')), 'must not contain control characters')
    .nullable()
    .optional();

export const footerBody = z.strictObject({ html: footerPart(20_000), text: footerPart(5_000) });

/** `/v1/branding`: the account's logo and footer (API key or session). */
export function brandingRoutes(deps: ApiDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/v1/branding' });
  router.use(authenticate(deps));
  const base = (userId: string) => ({ db: deps.db, baseUrl: deps.config.baseUrl, userId });

  router.get('/', async (ctx) => {
    ctx.body = await getBranding(base(requireAuth(ctx).userId));
  });

  // The body is the image itself (`curl --data-binary @logo.png`), not JSON.
  router.put('/logo', async (ctx) => {
    const { userId } = requireAuth(ctx);
    let bytes: Buffer;
    try {
      bytes = await readRawBody(ctx, LOGO_MAX_BYTES);
    } catch (err) {
      if (isAppError(err) && err.code === 'PAYLOAD_TOO_LARGE') {
        throw logoTooLarge(`The logo may be at most ${LOGO_MAX_BYTES} bytes`, { limit: LOGO_MAX_BYTES });
      }
      throw err;
    }
    if (bytes.length === 0) throw invalidLogo('The request body must be the image bytes');
    ctx.body = await uploadLogo({
      ...base(userId),
      actor: requestActor(ctx),
      bytes,
      declaredType: ctx.get('content-type') || undefined,
    });
  });

  router.delete('/logo', async (ctx) => {
    const { userId } = requireAuth(ctx);
    ctx.body = await removeLogo({ ...base(userId), actor: requestActor(ctx) });
  });

  router.put('/footer', async (ctx) => {
    const { userId } = requireAuth(ctx);
    const footer = await readBody(ctx, footerBody);
    ctx.body = await setFooter({ ...base(userId), actor: requestActor(ctx), footer });
  });

  return router;
}

/**
 * `/public/branding/<owner_id>/logo`: no token, since mail clients fetch it. Served
 * with its own type, nosniff (set for every response), a sandboxing CSP, and
 * caching validated by ETag. SVG can carry script: it is sent as an attachment, so
 * opening the URL downloads it instead of rendering it on this origin (an `<img>`
 * still shows it, and images never run scripts).
 */
export function publicBrandingRoutes(deps: ApiDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/public/branding' });

  router.get('/:ownerId/logo', async (ctx) => {
    const logo = await publicLogo(deps.db, ctx.params.ownerId ?? '');
    const filename = `logo.${LOGO_EXTENSION[logo.contentType]}`;
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.set('ETag', logo.etag);
    ctx.set('Last-Modified', logo.lastModified.toUTCString());
    ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
    ctx.set(
      'Content-Disposition',
      `${logo.contentType === 'image/svg+xml' ? 'attachment' : 'inline'}; filename="${filename}"`,
    );
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.type = logo.contentType;
    ctx.body = logo.bytes;
  });

  return router;
}

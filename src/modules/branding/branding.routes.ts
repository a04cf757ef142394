import { z } from 'zod';
import { readBody, readRawBody } from '../../http/body';
import type { ApiDeps } from '../../http/context';
import { requestActor, requireAuth } from '../../http/context';
import { RouteGroup } from '../../http/route';
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
import { BrandingResponse } from './branding.responses';

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
export function brandingRoutes(deps: ApiDeps): RouteGroup {
  const routes = new RouteGroup(deps, '/v1/branding', 'Branding');
  const base = (userId: string) => ({ db: deps.db, baseUrl: deps.config.baseUrl, userId });

  routes.define(
    {
      method: 'get',
      path: '/',
      auth: 'either',
      operationId: 'getBranding',
      summary: 'The account’s logo and footer',
      ok: { status: 200, schema: BrandingResponse, description: 'Branding' },
    },
    async (ctx) => {
      ctx.body = await getBranding(base(requireAuth(ctx).userId));
    },
  );

  // The body is the image itself (`curl --data-binary @logo.png`), not JSON.
  routes.define(
    {
      method: 'put',
      path: '/logo',
      auth: 'either',
      operationId: 'uploadLogo',
      summary: 'Upload the logo (PNG, JPEG or SVG, at most 512 KiB); the body is the image',
      rawBody: { contentType: 'image/*', description: 'The image bytes (`curl --data-binary @logo.png`)' },
      ok: { status: 200, schema: BrandingResponse, description: 'Branding' },
      errors: ['INVALID_LOGO', 'LOGO_TOO_LARGE'],
    },
    async (ctx) => {
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
    },
  );

  routes.define(
    {
      method: 'delete',
      path: '/logo',
      auth: 'either',
      operationId: 'deleteLogo',
      summary: 'Remove the logo',
      ok: { status: 200, schema: BrandingResponse, description: 'Branding' },
      errors: ['LOGO_NOT_FOUND'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      ctx.body = await removeLogo({ ...base(userId), actor: requestActor(ctx) });
    },
  );

  routes.define(
    {
      method: 'put',
      path: '/footer',
      auth: 'either',
      operationId: 'setFooter',
      summary: 'Replace the footer added to outgoing mail (`{{logo_url}}` allowed)',
      body: footerBody,
      ok: { status: 200, schema: BrandingResponse, description: 'Branding' },
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      const footer = await readBody(ctx, footerBody);
      ctx.body = await setFooter({ ...base(userId), actor: requestActor(ctx), footer });
    },
  );

  return routes;
}

/**
 * `/public/branding/<owner_id>/logo`: no token, since mail clients fetch it. Served
 * with its own type, nosniff (set for every response), a sandboxing CSP, and
 * caching validated by ETag. SVG can carry script: it is sent as an attachment, so
 * opening the URL downloads it instead of rendering it on this origin (an `<img>`
 * still shows it, and images never run scripts).
 */
export function publicBrandingRoutes(deps: ApiDeps): RouteGroup {
  const routes = new RouteGroup(deps, '/public/branding', 'Branding');

  routes.define(
    {
      method: 'get',
      path: '/:ownerId/logo',
      ids: { ownerId: 'usr' },
      auth: 'none',
      anyQuery: true,
      operationId: 'publicLogo',
      summary: 'An account’s logo for mail clients (no token; ETag, 304 on If-None-Match)',
      otherResponses: { '304': { description: 'Not modified (ETag matched)' } },
      ok: { status: 200, description: 'The image', contentType: 'image/*' },
      errors: ['LOGO_NOT_FOUND'],
    },
    async (ctx) => {
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
    },
  );

  return routes;
}

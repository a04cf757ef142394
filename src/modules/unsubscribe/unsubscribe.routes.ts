import type Koa from 'koa';
import type { ApiDeps } from '../../http/context';
import { requestActor } from '../../http/context';
import { readRawBody } from '../../http/body';
import { RouteGroup } from '../../http/route';
import { validationError } from '../../shared/app-error';
import { isOneClickBody } from './one-click-body';
import { unsubscribeLinkNotFound, unsubscribeOneClick, unsubscribeTarget } from './unsubscribe.usecases';
import { ONE_CLICK, unsubscribeKey, verifyUnsubscribeToken } from './unsubscribe-token';

const MAX_BODY = 4096;

// The page has no script and only posts to itself; nothing may frame it (clickjacking a one-click form).
const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'";

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(ctx: Koa.Context, title: string, body: string): void {
  ctx.set('Content-Security-Policy', PAGE_CSP);
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}button{font:inherit;padding:.5rem 1rem}</style></head><body><main>${body}</main></body></html>`;
}

/**
 * `/public/unsubscribe/<token>`: the URL Mailroom writes into List-Unsubscribe when a
 * domain has `unsubscribeLink` on (issue 22 item 5). No token: mailbox providers post
 * to it from their servers. GET only shows a confirmation button — link scanners and
 * prefetchers follow links, so a GET changes nothing (RFC 8058 §3.2).
 */
export function publicUnsubscribeRoutes(deps: ApiDeps): RouteGroup {
  const routes = new RouteGroup(deps, '/public/unsubscribe', 'Unsubscribe');
  const key = unsubscribeKey(deps.config.secretKey);

  routes.define(
    {
      method: 'get',
      path: '/:token',
      auth: 'none',
      anyQuery: true,
      operationId: 'unsubscribePage',
      summary: 'One-click unsubscribe: a confirmation page with a button (no state change on GET)',
      ok: { status: 200, description: 'The confirmation page', contentType: 'text/html' },
      errors: ['UNSUBSCRIBE_LINK_NOT_FOUND'],
    },
    async (ctx) => {
      const target = await unsubscribeTarget(deps.db, key, ctx.params.token ?? '');
      page(
        ctx,
        'Unsubscribe',
        `<h1>Unsubscribe</h1><p>Stop mail from this sender to <strong>${escapeHtml(target.address)}</strong>?</p>` +
          `<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
      );
    },
  );

  routes.define(
    {
      method: 'post',
      path: '/:token',
      auth: 'none',
      anyQuery: true,
      operationId: 'unsubscribeOneClick',
      summary: 'RFC 8058 one-click unsubscribe: suppresses the recipient (type unsubscribe); idempotent',
      rawBody: {
        contentType: 'application/x-www-form-urlencoded',
        description: `\`${ONE_CLICK}\` (or the same field as multipart/form-data)`,
      },
      ok: { status: 200, description: 'Unsubscribed (also when it already was)', contentType: 'text/html' },
      errors: ['UNSUBSCRIBE_LINK_NOT_FOUND', 'VALIDATION_ERROR'],
    },
    async (ctx) => {
      // The token's HMAC first: a POST to a link that is not ours costs no body read (up to
      // 4 KiB) and no parse; it is refused as the usecase would refuse it.
      if (verifyUnsubscribeToken(key, ctx.params.token ?? '') === undefined) throw unsubscribeLinkNotFound();
      const raw = await readRawBody(ctx, MAX_BODY);
      // The boundary parameter is case-sensitive: the header as sent.
      if (!isOneClickBody(ctx.get('content-type'), raw)) {
        throw validationError(`the body must be ${ONE_CLICK} (RFC 8058 §3.2)`, {
          fields: [{ field: '(body)', message: 'must be List-Unsubscribe=One-Click' }],
        });
      }
      const done = await unsubscribeOneClick(deps.db, key, ctx.params.token ?? '', requestActor(ctx));
      if (done.newlySuppressed) {
        deps.log.info(
          { event: 'unsubscribed', userId: done.userId, emailId: done.emailId },
          'one-click unsubscribe',
        );
      }
      page(
        ctx,
        'Unsubscribed',
        `<h1>Unsubscribed</h1><p><strong>${escapeHtml(done.address)}</strong> will not get mail from this sender any more.</p>`,
      );
    },
  );

  return routes;
}

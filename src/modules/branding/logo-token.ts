/**
 * The footer's `{{logo_url}}` token (spec: Inline image token): at send time it
 * becomes `{base_url}/public/branding/<owner_id>/logo`, or nothing when the
 * account has no logo, so the image disappears instead of breaking. Pure functions;
 * the MIME build calls them with what brandingForSend found.
 */
import { trimEndChars } from '../../shared/text';

const TOKEN = /\{\{\s*logo_url\s*\}\}/g;
const HAS_TOKEN = /\{\{\s*logo_url\s*\}\}/;
/** An `<img>` or `<source>` start tag; quoted attribute values may contain `>`. */
const IMAGE_TAG = /<(?:img|source)\b(?:[^>"']|"[^"]*"|'[^']*')*>/gi;

export interface LogoTokenContext {
  /** BASE_URL of the appliance. */
  readonly baseUrl: string;
  /** The account id. */
  readonly ownerId: string;
  readonly hasLogo: boolean;
}

/** The public, token-free address of an account's logo. */
export function logoUrl(baseUrl: string, ownerId: string): string {
  return `${trimEndChars(baseUrl, '/')}/public/branding/${encodeURIComponent(ownerId)}/logo`;
}

function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/**
 * Resolves `{{logo_url}}` (spaces inside the braces allowed) in an HTML footer.
 * With a logo: every occurrence becomes the logo URL, HTML-escaped. Without one:
 * every `<img>` or `<source>` tag that carries the token is removed whole (its
 * `alt` text too, so nothing is left to show a broken image), and any other
 * occurrence (an `href`, a CSS `url()`) becomes the empty string.
 */
export function resolveLogoToken(html: string, ctx: LogoTokenContext): string {
  if (!HAS_TOKEN.test(html)) return html;
  if (ctx.hasLogo) {
    const url = escapeHtml(logoUrl(ctx.baseUrl, ctx.ownerId));
    return html.replace(TOKEN, () => url);
  }
  return html.replace(IMAGE_TAG, (tag) => (HAS_TOKEN.test(tag) ? '' : tag)).replace(TOKEN, '');
}

/** The same for a plain-text footer: the bare URL, or nothing. */
export function resolveLogoTokenText(text: string, ctx: LogoTokenContext): string {
  const url = ctx.hasLogo ? logoUrl(ctx.baseUrl, ctx.ownerId) : '';
  return text.replace(TOKEN, () => url);
}

export interface Bodies {
  readonly html: string | null;
  readonly text: string | null;
}

/**
 * Adds the account's footer to a message's bodies: the HTML footer before the last
 * `</body>` (or at the end when there is none), the text footer after a blank line.
 * Each footer goes only into the body of its own kind.
 */
export function appendFooter(body: Bodies, footer: Bodies): Bodies {
  let html = body.html;
  if (html !== null && footer.html) {
    const at = html.toLowerCase().lastIndexOf('</body>');
    html = at < 0 ? `${html}${footer.html}` : `${html.slice(0, at)}${footer.html}${html.slice(at)}`;
  }
  let text = body.text;
  if (text !== null && footer.text) text = `${text.trimEnd()}\n\n${footer.text}`;
  return { html, text };
}

import { z } from 'zod';

/** `?part=html|text&remoteImages=0|1` of the preview routes. */
export const previewQuery = z.strictObject({
  part: z.enum(['html', 'text']).default('html'),
  remoteImages: z.enum(['0', '1']).default('0'),
});

/**
 * Every `<link` start tag of the previewed HTML, found as the HTML tokenizer finds one: the
 * name (any case) followed by whitespace, `/` or `>`. No quantifier: linear on any body.
 */
const LINK_START_TAG = /<link(?=[\t\n\f\r />])/gi;

/**
 * The body as previewed: HTML with each `<link>` renamed to an inert element. Chromium allows
 * a `<link rel=prefetch>` that any fetch directive allows (it has no `prefetch-src`), so once
 * remote images are on (`img-src http: https:`) a prefetch reached the network, and
 * preconnect and dns-prefetch are under no directive at all (issue 28). An email needs none
 * of its links to be read: its remote stylesheets and fonts are refused by the policy anyway.
 * The stored body is untouched (the API returns it as received).
 */
export function previewBody(part: 'html' | 'text', body: string): string {
  return part === 'html' ? body.replace(LINK_START_TAG, '<mailroom-inert-link') : body;
}

/**
 * The headers a message body is previewed under (issue 19: email HTML is hostile). The
 * dashboard shows it in an `<iframe sandbox>`; the response carries its own policy too, so
 * it stays inert when opened directly: no script runs (CSP `sandbox` without
 * allow-scripts, no script-src), it gets an opaque origin (no cookies, no API access),
 * forms cannot submit, and nothing loads from the network — a tracking pixel included —
 * unless the viewer asks for remote images. Inline styles stay, or most mail is unreadable.
 */
export function previewHeaders(part: 'html' | 'text', remoteImages: boolean): Record<string, string> {
  const images = remoteImages ? 'img-src data: cid: https: http:' : 'img-src data: cid:';
  const csp = [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    images,
    "form-action 'none'",
    "base-uri 'none'",
    // The dashboard (same origin) may frame it; nothing else may.
    "frame-ancestors 'self'",
    'sandbox',
  ].join('; ');
  return {
    'Content-Type': part === 'html' ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8',
    'Content-Security-Policy': csp,
    'Content-Disposition': 'inline',
    'X-Content-Type-Options': 'nosniff',
    // A remote image loaded with the viewer's consent still learns nothing of the dashboard's URL.
    'Referrer-Policy': 'no-referrer',
  };
}

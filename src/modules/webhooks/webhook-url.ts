/** Long enough for any real receiver (query-string tokens included), short enough to log and index. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

export type WebhookUrlCheck =
  | { readonly ok: true; readonly url: URL; readonly href: string }
  | { readonly ok: false; readonly message: string };

/**
 * What a webhook URL must look like, before any address check: absolute http(s),
 * a host, no credentials (they would sit in the database and in every request
 * line; receivers authenticate us by the signature instead), no fragment.
 */
export function checkWebhookUrl(raw: string): WebhookUrlCheck {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) {
    return { ok: false, message: `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters` };
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: 'must be an absolute URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, message: 'must use https or http' };
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, message: 'must not contain credentials; verify the X-Mail-Signature header instead' };
  }
  if (url.hash !== '' || raw.includes('#')) return { ok: false, message: 'must not contain a fragment' };
  if (url.hostname === '') return { ok: false, message: 'must name a host' };
  if (url.href.length > MAX_WEBHOOK_URL_LENGTH) {
    return { ok: false, message: `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters` };
  }
  return { ok: true, url, href: url.href };
}

/** The host as the resolver takes it: IPv6 literals without their brackets. */
export function urlHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

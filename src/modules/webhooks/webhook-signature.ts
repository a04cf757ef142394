import crypto from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` and 32 random bytes in base64url. The whole string is the HMAC key. */
export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${crypto.randomBytes(32).toString('base64url')}`;
}

/** The sealing context of an endpoint's secret: a sealed value opens only for the row it was made for. */
export function secretContext(webhookId: string): string {
  return `webhook:${webhookId}`;
}

/**
 * `X-Mail-Signature` (spec: Events, Signature): `t=<unix seconds>,v1=<hex>` where
 * the digest is HMAC-SHA256 keyed with the secret over `<t>.<raw body>`.
 */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const digest = crypto.createHmac('sha256', secret).update(`${unixSeconds}.${body}`, 'utf8').digest('hex');
  return `t=${unixSeconds},v1=${digest}`;
}

import crypto from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/**
 * A new signing secret: `whsec_` and 32 random bytes in standard base64 (RFC 4648 §4),
 * the Standard Webhooks form, which its libraries (and Resend's `webhooks.verify`) decode
 * (issue 20). Secrets made before that were base64url: rotating one gives the new form.
 */
export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${crypto.randomBytes(32).toString('base64')}`;
}

/** The sealing context of an endpoint's secret: a sealed value opens only for the row it was made for. */
export function secretContext(webhookId: string): string {
  return `webhook:${webhookId}`;
}

/**
 * `X-Mail-Signature` (spec: Events, Signature): `t=<unix seconds>,v1=<hex>` where
 * the digest is HMAC-SHA256 keyed with the whole secret string over `<t>.<raw body>`.
 */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const digest = crypto.createHmac('sha256', secret).update(`${unixSeconds}.${body}`, 'utf8').digest('hex');
  return `t=${unixSeconds},v1=${digest}`;
}

/**
 * The Standard Webhooks signature (standardwebhooks.com, the Svix scheme Resend uses):
 * `v1,<base64 HMAC-SHA256>` over `<id>.<t>.<raw body>`, keyed with the secret's bytes:
 * the base64 after `whsec_` decoded (Node's decoder also reads the base64url of older secrets).
 */
export function standardSignature(secret: string, msgId: string, unixSeconds: number, body: string): string {
  const key = Buffer.from(
    secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
    'base64',
  );
  const digest = crypto
    .createHmac('sha256', key)
    .update(`${msgId}.${unixSeconds}.${body}`, 'utf8')
    .digest('base64');
  return `v1,${digest}`;
}

/**
 * Every signature header of a delivery: the spec's `X-Mail-Signature`, the Standard
 * Webhooks `webhook-*` trio and its `svix-*` aliases (what Resend's receivers read), all
 * over the same timestamp. `msgId` is the delivery id: the same on every retry, so a
 * receiver deduplicates on it.
 */
export function signatureHeaders(
  secret: string,
  msgId: string,
  body: string,
  unixSeconds: number,
): Record<string, string> {
  const standard = standardSignature(secret, msgId, unixSeconds, body);
  const t = String(unixSeconds);
  return {
    'X-Mail-Signature': signatureHeader(secret, body, unixSeconds),
    'webhook-id': msgId,
    'webhook-timestamp': t,
    'webhook-signature': standard,
    'svix-id': msgId,
    'svix-timestamp': t,
    'svix-signature': standard,
  };
}

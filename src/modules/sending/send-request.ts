import type Koa from 'koa';
import type { AppConfig } from '../../config';
import { resolveAuth } from '../../http/authenticate';
import { declaresLargeBody, readJson, readRawBody } from '../../http/body';
import type { ApiDeps, AppContext } from '../../http/context';
import { isAppError } from '../../shared/app-error';
import { sha256Hex } from '../../shared/secrets';
import { signalWork } from '../../shared/work-signal';
import { emailTooLarge } from '../emails/emails.errors';
import type { QuotaUsage } from '../quota/quota';
import type { SendEmailInput } from './emails.schemas';
import { checkIdempotencyKey } from './idempotency';
import type { SendResult } from './send-email';
import { sendEmail } from './send-email';

/**
 * Bodies up to this size keep the spec's order (validate, then authenticate); larger ones
 * are authenticated before a byte is read. A send without attachments is far smaller.
 */
const AUTH_FIRST_BYTES = 64 * 1024;

/** JSON carries attachments as base64 (4/3 of their size) plus the bodies and some structure. */
export function sendBodyLimit(config: Pick<AppConfig, 'emailMaxSizeBytes'>): number {
  return Math.ceil((config.emailMaxSizeBytes * 4) / 3) + 256 * 1024;
}

function setQuotaHeaders(ctx: Koa.Context, usage: QuotaUsage): void {
  ctx.set('X-RateLimit-Limit', String(usage.hour.limit));
  ctx.set('X-RateLimit-Remaining', String(Math.max(0, usage.hour.limit - usage.hour.used)));
  ctx.set('X-RateLimit-Limit-Day', String(usage.day.limit));
  ctx.set('X-RateLimit-Remaining-Day', String(Math.max(0, usage.day.limit - usage.day.used)));
}

/**
 * One send request, whichever surface it came by (`POST /v1/emails`, the Resend-compatible
 * `POST /emails`, issue 20): read, parse with the surface's `parse`, authenticate, then the
 * one send path (sendEmail: quotas, suppressions, idempotency, the writer thread's commit).
 * Sets the quota and replay headers and the access-log event; the caller shapes the body.
 *
 * The spec's pipeline validates the body before authenticating, so the route authenticates
 * itself. A body over AUTH_FIRST_BYTES (or of undeclared length) is authenticated first: an
 * anonymous caller must not make the service read and validate megabytes (issue 17 finding 5).
 */
export async function acceptSendRequest(
  deps: ApiDeps,
  ctx: AppContext,
  bodyLimit: number,
  parse: (json: unknown) => SendEmailInput,
): Promise<SendResult> {
  let auth = declaresLargeBody(ctx, AUTH_FIRST_BYTES) ? await resolveAuth(deps, ctx) : undefined;
  let raw: Buffer;
  try {
    raw = await readRawBody(ctx, bodyLimit);
  } catch (err) {
    if (isAppError(err) && err.code === 'PAYLOAD_TOO_LARGE') {
      throw emailTooLarge(`The request exceeds ${bodyLimit} bytes`, {
        limit: deps.config.emailMaxSizeBytes,
      });
    }
    throw err;
  }
  const input = parse(await readJson(ctx, bodyLimit, raw));
  auth ??= await resolveAuth(deps, ctx);
  const idempotencyKey = checkIdempotencyKey(ctx.get('idempotency-key') || undefined);
  const result = await sendEmail({
    db: deps.db,
    committer: deps.sendCommitter,
    config: deps.config,
    log: deps.log,
    user: auth.user,
    apiKeyId: auth.keyId,
    input,
    // The body is hashed only when a key asks for replay protection.
    idempotency:
      idempotencyKey === undefined ? undefined : { key: idempotencyKey, requestHash: sha256Hex(raw) },
  });
  if (result.usage) setQuotaHeaders(ctx, result.usage);
  if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
  if (result.queued)
    ctx.state.accessLog = { event: 'email_queued', msg: 'email queued', fields: result.queued };
  if (result.queued?.scheduledAt === null) signalWork();
  return result;
}

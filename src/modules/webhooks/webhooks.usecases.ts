import type { Kysely } from 'kysely';
import type { Database, SendMode, WebhookDisabledReason, WebhookPayloadFormat } from '../../db/schema';
import { serialise } from '../../db/serialise';
import { validationError } from '../../shared/app-error';
import { isoNow } from '../../shared/clock';
import { newId } from '../../shared/ids';
import type { Sealer } from '../../shared/seal';
import type { Actor } from '../audit';
import { recordAudit } from '../audit';
import type { DestinationCheck } from './destination-check';
import type { WebhookEvent } from './webhook-events';
import { parseEvents } from './webhook-events';
import { generateWebhookSecret, secretContext } from './webhook-signature';
import type { WebhookAttemptRow, WebhookRow } from './webhooks.repository';
import * as repo from './webhooks.repository';
import { webhookLimitReached, webhookNotFound } from './webhooks.errors';
import type { CreateWebhookInput, PatchWebhookInput } from './webhooks.schemas';

/** Per account (docs/webhooks.md). */
export const MAX_WEBHOOKS_PER_ACCOUNT = 20;
/** Spec: the detail view includes the last 25 delivery attempts. */
export const ATTEMPTS_SHOWN = 25;

export interface WebhookView {
  readonly id: string;
  readonly url: string;
  readonly events: WebhookEvent[];
  readonly payloadFormat: WebhookPayloadFormat;
  readonly enabled: boolean;
  readonly disabledReason: WebhookDisabledReason | null;
  readonly disabledAt: string | null;
  readonly consecutiveFailures: number;
  readonly lastSuccessAt: string | null;
  readonly lastFailureAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface WebhookAttemptView {
  readonly id: string;
  /** The `X-Mail-Delivery-Id` sent; the same on every attempt of one delivery. */
  readonly deliveryId: string;
  readonly event: string;
  readonly attempt: number;
  readonly succeeded: boolean;
  /** The receiver's status, or null when there was no response (refused, DNS, connect, timeout). */
  readonly httpStatus: number | null;
  readonly error: string | null;
  readonly durationMs: number;
  /** The start of the receiver's body (up to 512 bytes), or null when it did not answer. */
  readonly responseExcerpt: string | null;
  readonly createdAt: string;
  /** The request this attempt sent (or tried to), signatures included; null for attempts before it was kept. */
  readonly request: { readonly headers: Record<string, string>; readonly body: string } | null;
  /** `test` for an event of test-mode mail or a `webhook.test` (issue 29 item 6). */
  readonly mode: SendMode;
  /** The delivery id this delivery redelivers, else null. */
  readonly redeliveryOf: string | null;
}

/** The stored header object; a row edited by hand into something else shows as no headers. */
function parseHeaders(json: string): Record<string, string> {
  try {
    const value = JSON.parse(json) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    return Object.fromEntries(
      Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
  } catch {
    return {};
  }
}

export function webhookView(r: WebhookRow): WebhookView {
  return {
    id: r.id,
    url: r.url,
    events: parseEvents(r.events),
    payloadFormat: r.payload_format,
    enabled: r.enabled === 1,
    disabledReason: r.disabled_reason,
    disabledAt: r.disabled_at,
    consecutiveFailures: r.consecutive_failures,
    lastSuccessAt: r.last_success_at,
    lastFailureAt: r.last_failure_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export function attemptView(r: WebhookAttemptRow): WebhookAttemptView {
  return {
    id: r.id,
    deliveryId: r.delivery_id,
    event: r.event,
    attempt: r.attempt,
    succeeded: r.succeeded === 1,
    httpStatus: r.http_status,
    error: r.error,
    durationMs: r.duration_ms,
    responseExcerpt: r.response_excerpt,
    createdAt: r.created_at,
    request:
      r.request_headers === null || r.request_body === null
        ? null
        : { headers: parseHeaders(r.request_headers), body: r.request_body },
    mode: r.mode,
    redeliveryOf: r.redelivery_of,
  };
}

interface Deps {
  readonly db: Kysely<Database>;
  readonly userId: string;
}

interface WriteDeps extends Deps {
  readonly actor: Actor;
  readonly checkDestination: DestinationCheck;
}

/** The URL's host only: a query string may carry the receiver's own token. */
function auditUrl(url: string): string {
  return new URL(url).host;
}

/** Throws the refusal; returns the warnings for the answer (none, or the one about DNS). */
async function assertDestination(check: DestinationCheck, url: string): Promise<string[]> {
  const { refusal, warning } = await check(new URL(url));
  if (refusal !== undefined) {
    throw validationError(`url: ${refusal}`, { fields: [{ field: 'url', message: refusal }] });
  }
  return warning === undefined ? [] : [warning];
}

export async function createWebhook(
  deps: WriteDeps & { readonly sealer: Sealer; readonly input: CreateWebhookInput },
): Promise<WebhookView & { secret: string; warnings?: string[] }> {
  const warnings = await assertDestination(deps.checkDestination, deps.input.url);
  const id = newId('whk');
  const secret = generateWebhookSecret();
  const now = isoNow();
  const enabled = deps.input.enabled ?? true;
  const row: WebhookRow = {
    id,
    user_id: deps.userId,
    url: deps.input.url,
    events: JSON.stringify(deps.input.events),
    secret_sealed: deps.sealer.seal(secret, secretContext(id)),
    payload_format: deps.input.payloadFormat,
    enabled: enabled ? 1 : 0,
    disabled_reason: enabled ? null : 'manual',
    disabled_at: enabled ? null : now,
    consecutive_failures: 0,
    last_success_at: null,
    last_failure_at: null,
    created_at: now,
    updated_at: now,
  };
  await deps.db.transaction().execute(async (trx) => {
    // Count and insert in one turn per account, or two concurrent creations on PostgreSQL both count 19.
    await serialise(trx, `webhooks:${deps.userId}`);
    if ((await repo.countWebhooks(trx, deps.userId)) >= MAX_WEBHOOKS_PER_ACCOUNT) {
      throw webhookLimitReached(undefined, { limit: MAX_WEBHOOKS_PER_ACCOUNT });
    }
    await repo.insertWebhook(trx, row);
    await recordAudit(trx, {
      actor: deps.actor,
      userId: deps.userId,
      action: 'webhook.created',
      resource: 'webhook',
      resourceId: id,
      details: {
        host: auditUrl(row.url),
        events: deps.input.events,
        enabled,
        payloadFormat: row.payload_format,
      },
    });
  });
  // The only time the secret leaves the process in clear.
  return { ...webhookView(row), secret, ...(warnings.length > 0 ? { warnings } : {}) };
}

export async function listWebhookViews(deps: Deps): Promise<WebhookView[]> {
  return (await repo.listWebhooks(deps.db, deps.userId)).map(webhookView);
}

export async function getWebhook(
  deps: Deps & { readonly id: string },
): Promise<WebhookView & { attempts: WebhookAttemptView[] }> {
  const row = await repo.findWebhook(deps.db, deps.userId, deps.id);
  if (!row) throw webhookNotFound();
  const attempts = await repo.listAttempts(deps.db, deps.userId, row.id, ATTEMPTS_SHOWN);
  return { ...webhookView(row), attempts: attempts.map(attemptView) };
}

export async function updateWebhook(
  deps: WriteDeps & { readonly id: string; readonly input: PatchWebhookInput },
): Promise<WebhookView> {
  const { input } = deps;
  if (!(await repo.findWebhook(deps.db, deps.userId, deps.id))) throw webhookNotFound();
  if (input.url !== undefined) await assertDestination(deps.checkDestination, input.url);
  const now = isoNow();
  const patch: repo.WebhookPatch = { updated_at: now };
  if (input.url !== undefined) patch.url = input.url;
  if (input.events !== undefined) patch.events = JSON.stringify(input.events);
  if (input.payloadFormat !== undefined) patch.payload_format = input.payloadFormat;
  return deps.db.transaction().execute(async (trx) => {
    const before = await repo.findWebhook(trx, deps.userId, deps.id);
    if (!before) throw webhookNotFound();
    if (input.enabled === true) {
      // Re-enabling (or confirming enabled after a fix) starts the count of consecutive failures afresh (issue 7).
      Object.assign(patch, { enabled: 1, disabled_reason: null, disabled_at: null, consecutive_failures: 0 });
    } else if (input.enabled === false && before.enabled === 1) {
      Object.assign(patch, { enabled: 0, disabled_reason: 'manual', disabled_at: now });
    }
    const after = await repo.updateWebhook(trx, deps.userId, deps.id, patch);
    if (!after) throw webhookNotFound();
    await recordAudit(trx, {
      actor: deps.actor,
      userId: deps.userId,
      action: 'webhook.updated',
      resource: 'webhook',
      resourceId: after.id,
      details: {
        ...(input.url !== undefined ? { host: auditUrl(after.url) } : {}),
        ...(input.events !== undefined ? { events: input.events } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        ...(input.payloadFormat !== undefined ? { payloadFormat: input.payloadFormat } : {}),
      },
    });
    return webhookView(after);
  });
}

export async function deleteWebhook(
  deps: Deps & { readonly actor: Actor; readonly id: string },
): Promise<{ id: string; deleted: true }> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await repo.findWebhook(trx, deps.userId, deps.id);
    if (!row || !(await repo.deleteWebhook(trx, deps.userId, deps.id))) throw webhookNotFound();
    await recordAudit(trx, {
      actor: deps.actor,
      userId: deps.userId,
      action: 'webhook.deleted',
      resource: 'webhook',
      resourceId: row.id,
      details: { host: auditUrl(row.url) },
    });
    return { id: row.id, deleted: true };
  });
}

/**
 * A new signing secret for the endpoint, answered once (issue 20: Resend's rotate). The
 * old one stops at once: deliveries signed from now on, retries included, use the new one.
 */
export async function rotateWebhookSecret(
  deps: Deps & { readonly actor: Actor; readonly sealer: Sealer; readonly id: string },
): Promise<WebhookView & { secret: string }> {
  const secret = generateWebhookSecret();
  return deps.db.transaction().execute(async (trx) => {
    const after = await repo.updateWebhook(trx, deps.userId, deps.id, {
      secret_sealed: deps.sealer.seal(secret, secretContext(deps.id)),
      updated_at: isoNow(),
    });
    if (!after) throw webhookNotFound();
    await recordAudit(trx, {
      actor: deps.actor,
      userId: deps.userId,
      action: 'webhook.secret_rotated',
      resource: 'webhook',
      resourceId: after.id,
    });
    // The only time the new secret leaves the process in clear.
    return { ...webhookView(after), secret };
  });
}

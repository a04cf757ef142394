// The one way the dashboard talks to the appliance: the public /v1 API, with the session cookie.
// Every screen is a view of these endpoints (issue 19: nothing the UI can do that the API cannot).

import type { components } from './generated/openapi';

/** The `error` of every failure's body (`{"error": {code, message, details?}}`). */
export type ApiErrorBody = components['schemas']['Error']['error'];

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(body.message);
  }
}

/** Called on a 401 from any request but sign-in: the session ended (expired, logged out elsewhere). */
let onSignedOut: () => void = () => undefined;
/** Called on ACCOUNT_SUSPENDED: every request of a suspended account answers it (SPEC). */
let onSuspended: (reason: string | null) => void = () => undefined;
export function whenSignedOut(out: () => void, suspended: (reason: string | null) => void): void {
  onSignedOut = out;
  onSuspended = suspended;
}

/**
 * The server names its cookies by BASE_URL: `__Host-mr_csrf` under https, `mr_csrf` under plain
 * http. The page is served from BASE_URL, so the protocol it was loaded over says which to read.
 */
const CSRF_COOKIE = location.protocol === 'https:' ? '__Host-mr_csrf' : 'mr_csrf';

function csrfToken(): string {
  for (const part of document.cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === CSRF_COOKIE) return part.slice(eq + 1).trim();
  }
  return '';
}

export interface RequestInit2 {
  readonly body?: unknown;
  /** Raw bytes (logo upload) with their type. */
  readonly raw?: { readonly data: Blob; readonly type: string };
}

export async function api<T>(method: string, path: string, init: RequestInit2 = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken();
  let body: BodyInit | undefined;
  if (init.raw) {
    headers['content-type'] = init.raw.type;
    body = init.raw.data;
  } else if (init.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.body);
  }
  const res = await fetch(path, { method, headers, body, credentials: 'same-origin' });
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!res.ok) {
    const err = (parsed as { error?: ApiErrorBody } | undefined)?.error ?? {
      code: `HTTP_${res.status}`,
      message: text.slice(0, 200) || res.statusText,
    };
    if (res.status === 401 && !path.startsWith('/v1/auth/login')) onSignedOut();
    if (err.code === 'ACCOUNT_SUSPENDED') onSuspended((err.details?.reason as string | null) ?? null);
    throw new ApiError(res.status, err);
  }
  return parsed as T;
}

export const get = <T>(path: string) => api<T>('GET', path);
export const post = <T>(path: string, body?: unknown) => api<T>('POST', path, { body: body ?? {} });
export const patch = <T>(path: string, body: unknown) => api<T>('PATCH', path, { body });
export const put = <T>(path: string, body: unknown) => api<T>('PUT', path, { body });
export const del = <T>(path: string) => api<T>('DELETE', path);

/** A query string from the set values only. */
export function qs(params: Record<string, string | number | undefined>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** The API's answer in words for a person: its message, and each field problem. */
export function describeError(err: unknown): string {
  if (err instanceof ApiError) {
    // In words (issue 29 item 9): the API's message, then what each field's check said unless the
    // message says it already; the code stays in the response for programs, not in the sentence.
    const fields = (err.body.details?.fields as { field: string; message: string }[] | undefined) ?? [];
    const extra = fields
      .map((f) => `${f.field}: ${f.message}`)
      .filter((line) => !err.body.message.includes(line))
      .join('; ');
    return `${err.body.message}${extra ? ` (${extra})` : ''}`;
  }
  return err instanceof Error ? err.message : String(err);
}

// The views the screens read, as the OpenAPI document declares them (issue 30 item 3): aliases
// into web/src/generated/openapi.ts, which `npm run build && npm run generate:web-types` writes
// from the routes' declarations. A view is named here once; no screen spells out an API shape.
type Schemas = components['schemas'];

export type AuthOptions = Schemas['AuthOptions'];
export type Me = Schemas['Me'];
export type ApiKeyList = Schemas['ApiKeyList'];
export type CreatedApiKey = Schemas['CreatedApiKey'];
export type EmailDetail = Schemas['EmailDetail'];
export type EmailStatus = Schemas['Email']['status'];
export type EmailPage = Schemas['EmailPage'];
export type Domain = Schemas['Domain'];
export type DomainList = Schemas['DomainList'];
export type DomainStatusHistory = Schemas['DomainStatusHistory'];
export type DomainStatusChange = Schemas['DomainStatusChange'];
export type CheckResult = Schemas['CheckResult'];
export type Verification = Schemas['Verification'];
export type TestEmailSent = Schemas['TestEmailSent'];
export type InboundSummary = Schemas['InboundSummary'];
export type InboundMessage = Schemas['InboundMessage'];
export type InboundPage = Schemas['InboundPage'];
export type Suppression = Schemas['Suppression'];
export type SuppressionPage = Schemas['SuppressionPage'];
export type Webhook = Schemas['Webhook'];
export type WebhookList = Schemas['WebhookList'];
export type CreatedWebhook = Schemas['CreatedWebhook'];
export type WebhookDetail = Schemas['WebhookDetail'];
export type WebhookAttempt = Schemas['WebhookAttempt'];
export type WebhookTestQueued = Schemas['WebhookTestQueued'];
export type WebhookRedeliveryQueued = Schemas['WebhookRedeliveryQueued'];
export type RotatedWebhook = Schemas['RotatedWebhook'];
export type Settings = Schemas['Settings'];
export type LimitView = Settings['limits']['emailsPerHour'];
export type MailHostname = Settings['mailHostname'];
export type Branding = Schemas['Branding'];
export type StatsOverview = Schemas['StatsOverview'];
export type HealthSignals = Schemas['HealthSignals'];
export type OperatorAccountPage = Schemas['OperatorAccountPage'];
export type InvitationList = Schemas['InvitationList'];
export type CreatedInvitation = Schemas['CreatedInvitation'];
export type AuditPage = Schemas['AuditPage'];

/** The paging fields every cursor-paged list answers besides its rows. */
export type Paging = Pick<EmailPage | SuppressionPage | InboundPage | AuditPage, 'hasMore' | 'nextCursor'>;

/**
 * An API enum's values for a form's options, in the order given. Keyed by value, so a value the
 * API adds and the dashboard does not list fails the typecheck.
 */
export function enumValues<T extends string>(values: Readonly<Record<T, true>>): readonly T[] {
  return Object.keys(values) as T[];
}

export const EMAIL_STATUSES = enumValues<EmailStatus>({
  queued: true,
  processing: true,
  sent: true,
  delivered: true,
  deferred: true,
  bounced: true,
  complained: true,
  failed: true,
  cancelled: true,
});
/** Still moving: the list refreshes these rows without a reload. */
export const IN_FLIGHT: ReadonlySet<EmailStatus> = new Set<EmailStatus>([
  'queued',
  'processing',
  'sent',
  'deferred',
]);

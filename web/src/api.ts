// The one way the dashboard talks to the appliance: the public /v1 API, with the session cookie.
// Every screen is a view of these endpoints (issue 19: nothing the UI can do that the API cannot).

export interface ApiErrorBody {
  readonly code: string;
  readonly message: string;
  readonly details?: Record<string, unknown>;
}

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

// Types of the views the screens read (mirrors of src/http/openapi-schemas.ts).
export type EmailStatus =
  | 'queued'
  | 'processing'
  | 'sent'
  | 'delivered'
  | 'deferred'
  | 'bounced'
  | 'complained'
  | 'failed'
  | 'cancelled';
export const EMAIL_STATUSES: readonly EmailStatus[] = [
  'queued',
  'processing',
  'sent',
  'delivered',
  'deferred',
  'bounced',
  'complained',
  'failed',
  'cancelled',
];
/** Still moving: the list refreshes these rows without a reload. */
export const IN_FLIGHT: ReadonlySet<string> = new Set(['queued', 'processing', 'sent', 'deferred']);

export interface Page<T> {
  readonly data: T[];
  readonly hasMore: boolean;
  readonly nextCursor: string | null;
}

/** `GET /v1/auth/options` (no authentication). */
export interface AuthOptions {
  readonly origin: string;
}

export interface Me {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly status: 'ACTIVE' | 'SUSPENDED';
  readonly role?: 'user' | 'operator';
}

export interface Recipient {
  readonly email: string;
  readonly type: string;
  readonly status: EmailStatus;
  readonly smtpResponse: string | null;
}

export interface EmailEvent {
  readonly type: string;
  readonly message: string | null;
  readonly recipient: string | null;
  readonly createdAt: string;
  /** Delivery attempts: TLS version and cipher of the session with the MX, or "plaintext". */
  readonly tls?: string | null;
  /** The appliance node that wrote the entry (issue 23). */
  readonly node?: string | null;
}

export interface Delivery {
  readonly attempts: number;
  readonly nextAttemptAt: string | null;
  readonly lastDeferral: { readonly at: string; readonly reply: string; readonly explanation: string } | null;
  readonly state: string;
  /** The answer in plain words. */
  readonly summary: string;
}

export interface Email {
  readonly id: string;
  readonly status: EmailStatus;
  readonly subject: string;
  readonly from: string;
  readonly domainId: string;
  readonly smtpResponse: string | null;
  readonly attempts: number;
  readonly createdAt: string;
  readonly scheduledAt: string | null;
  readonly sentAt: string | null;
  readonly deliveredAt: string | null;
  readonly messageId: string;
  readonly headers: Record<string, string> | null;
  readonly tags: Record<string, string> | null;
  readonly recipients: Recipient[];
  readonly events?: EmailEvent[];
  readonly delivery?: Delivery;
  readonly parts?: { readonly html: boolean; readonly text: boolean };
  readonly attachments?: readonly {
    readonly filename: string;
    readonly contentType: string;
    readonly sizeBytes: number;
    readonly inline: boolean;
  }[];
}

export interface DnsRecord {
  readonly purpose: string;
  readonly type: string;
  readonly host: string;
  readonly name: string;
  readonly value: string;
  readonly priority?: number;
  readonly ttl: number;
  readonly required: boolean;
  readonly description: string;
  /** False when it names a host of the server that is no public DNS name (MAIL_HOSTNAME). */
  readonly usable: boolean;
  readonly unusableReason?: string;
}

/** `mailHostname` of `GET /v1/settings`. */
export interface MailHostname {
  readonly name: string;
  readonly usable: boolean;
  readonly reason?: string;
}

export interface Domain {
  readonly id: string;
  readonly domain: string;
  readonly status: 'PENDING' | 'VERIFIED' | 'FAILED';
  readonly records: DnsRecord[];
  readonly unsubscribeLink: boolean;
  readonly verifiedAt: string | null;
  readonly lastCheckedAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** `GET /v1/domains/{id}/status-history`. */
export interface DomainStatusChange {
  readonly from: Domain['status'] | null;
  readonly to: Domain['status'];
  readonly trigger: 'created' | 'api' | 'recheck' | 'migration';
  readonly checks: Record<string, string> | null;
  readonly at: string;
}

export interface CheckResult {
  readonly verified: boolean;
  readonly code?: string;
  readonly message?: string;
  readonly found?: string[];
  readonly expected?: string;
}

export interface Verification {
  readonly verified: boolean;
  readonly domain: string;
  readonly status: string;
  readonly spf: CheckResult;
  readonly dkim: CheckResult;
  readonly dmarc: CheckResult;
  readonly returnPath: CheckResult;
  readonly mx?: CheckResult;
  readonly required: Record<string, boolean>;
  readonly nextSteps?: string[];
}

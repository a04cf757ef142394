export interface JsonResponse<T = Record<string, unknown>> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
  readonly text: string;
}

export interface RequestOptions {
  readonly token?: string | undefined;
  readonly headers?: Record<string, string>;
  /** A string is sent as is (for malformed-JSON tests); anything else is JSON-encoded. */
  readonly body?: unknown;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** undici's error for a pooled connection the server closed (its keep-alive timeout ran out). */
function closedByServer(err: unknown): boolean {
  const cause = (err as { cause?: { code?: unknown } } | null)?.cause;
  return cause?.code === 'UND_ERR_SOCKET';
}

/**
 * fetch, robust to the keep-alive race. The API closes a connection idle for 5 s (its
 * keepAliveTimeout); a test that blocks its event loop about that long (populating thousands of
 * rows with synchronous SQLite writes) can send its next request on a pooled socket just as the
 * server closes it, and get "other side closed" (CI, twice, after populateMail). First one turn of
 * the event loop, so a close already received and undici's expired idle timers are seen; then,
 * as browsers do, one retry of an idempotent request that still met the race.
 */
async function fetchFresh(url: string, init: RequestInit & { method: string }): Promise<Response> {
  await new Promise((resolve) => setImmediate(resolve));
  try {
    return await fetch(url, init);
  } catch (err) {
    if (!IDEMPOTENT.has(init.method.toUpperCase()) || !closedByServer(err)) throw err;
    return fetch(url, init);
  }
}

/** A tiny JSON client over fetch for tests: never throws on HTTP status, returns parsed body. */
export class ApiClient {
  constructor(readonly baseUrl: string) {}

  async request<T = Record<string, unknown>>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<JsonResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetchFresh(`${this.baseUrl}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  get<T = Record<string, unknown>>(path: string, options?: RequestOptions): Promise<JsonResponse<T>> {
    return this.request<T>('GET', path, options);
  }
  post<T = Record<string, unknown>>(path: string, options?: RequestOptions): Promise<JsonResponse<T>> {
    return this.request<T>('POST', path, options);
  }
  patch<T = Record<string, unknown>>(path: string, options?: RequestOptions): Promise<JsonResponse<T>> {
    return this.request<T>('PATCH', path, options);
  }
  delete<T = Record<string, unknown>>(path: string, options?: RequestOptions): Promise<JsonResponse<T>> {
    return this.request<T>('DELETE', path, options);
  }

  /** Registers a fresh account and returns its session token and id. */
  async register(
    email?: string,
  ): Promise<{ token: string; userId: string; email: string; password: string }> {
    const address = email ?? `user-${Math.random().toString(36).slice(2, 10)}@example.com`;
    const password = 'correct horse battery staple';
    const res = await this.post<{ token: string; user: { id: string } }>('/v1/auth/register', {
      body: { email: address, password, name: 'Test User' },
    });
    if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
    return { token: res.body.token, userId: res.body.user.id, email: address, password };
  }

  /** Registers an account and creates an API key for it. */
  async registerWithKey(): Promise<{ token: string; apiKey: string; userId: string }> {
    const user = await this.register();
    const key = await this.post<{ token: string }>('/v1/api-keys', {
      token: user.token,
      body: { name: 'test' },
    });
    if (key.status !== 201) throw new Error(`api key failed: ${key.status} ${key.text}`);
    return { token: user.token, apiKey: key.body.token, userId: user.userId };
  }
}

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
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers, body });
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

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RateLimiter } from '../../src/shared/rate-limiter';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';

/**
 * Issue 17 finding 8: with TRUST_PROXY=true the client IP was the leftmost X-Forwarded-For
 * entry, which the client writes itself. Behind a proxy that appends, a fresh spoofed value
 * per request escaped both per-IP limits and added a limiter entry each time.
 */
const HTTP_LIMIT = 30;
const AUTH_LIMIT = 3;

let spoofed = 0;
/** What a client sends through an appending proxy: its own made-up entry, then its real address. */
function throughProxy(client: string, ...proxies: string[]): Record<string, string> {
  spoofed += 1;
  return { 'x-forwarded-for': [`10.9.${spoofed >> 8}.${spoofed & 255}`, client, ...proxies].join(', ') };
}

async function statusesOf(app: Appliance, n: number, headers: () => Record<string, string>) {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await app.api.get('/health', { headers: headers() })).status);
  return statuses;
}

describe('X-Forwarded-For behind one appending proxy (issue 17 finding 8)', () => {
  let app: Appliance;
  before(async () => {
    app = await startAppliance({
      processes: ['api'],
      env: {
        TRUST_PROXY: 'true',
        HTTP_RATE_LIMIT_PER_MINUTE: String(HTTP_LIMIT),
        AUTH_RATE_LIMIT_PER_15_MIN: String(AUTH_LIMIT),
      },
    });
  });
  after(async () => {
    await app.stop();
  });

  it('applies the per-IP limit to the real client whatever it puts leftmost', async () => {
    const statuses = await statusesOf(app, HTTP_LIMIT + 5, () => throughProxy('203.0.113.7'));
    assert.ok(statuses.includes(429), `statuses: ${statuses.join(',')}`);
    assert.ok(statuses.filter((s) => s === 200).length <= HTTP_LIMIT);
    // Another client behind the same proxy has its own allowance.
    assert.equal((await app.api.get('/health', { headers: throughProxy('203.0.113.8') })).status, 200);
  });

  it('applies the credential limit to the real client', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < AUTH_LIMIT + 2; i++) {
      const res = await app.api.post('/v1/auth/login', {
        headers: throughProxy('198.51.100.20'),
        body: { email: 'nobody@example.com', password: 'not the password' },
      });
      statuses.push(res.status);
    }
    assert.deepEqual(statuses.slice(AUTH_LIMIT), [429, 429]);
  });
});

describe('X-Forwarded-For behind two proxies (TRUST_PROXY_HOPS=2)', () => {
  let app: Appliance;
  before(async () => {
    app = await startAppliance({
      processes: ['api'],
      env: { TRUST_PROXY: 'true', TRUST_PROXY_HOPS: '2', HTTP_RATE_LIMIT_PER_MINUTE: String(HTTP_LIMIT) },
    });
  });
  after(async () => {
    await app.stop();
  });

  it('takes the client from the second entry from the right', async () => {
    // The inner proxy's address varies (a pool): it must not be the key either.
    let inner = 0;
    const statuses = await statusesOf(app, HTTP_LIMIT + 5, () =>
      throughProxy('203.0.113.9', `192.0.2.${(inner++ % 200) + 1}`),
    );
    assert.ok(statuses.includes(429), `statuses: ${statuses.join(',')}`);
  });
});

describe('RateLimiter memory bound', () => {
  it('never holds more than maxKeys however many keys arrive', () => {
    let now = 0;
    const limiter = new RateLimiter(2, 60_000, () => now, 100);
    limiter.hit('steady');
    now = 60_000; // the next window: "steady" rolls and moves behind the idle keys
    for (let i = 0; i < 50; i++) limiter.hit(`old-${i}`);
    limiter.hit('steady');
    limiter.hit('steady');
    for (let i = 0; i < 10_000; i++) {
      limiter.hit(`spoofed-${i}`);
      assert.ok(limiter.size <= 100);
    }
    assert.equal(limiter.size, 100);
    limiter.stop();
  });

  it('keeps counting a key seen in the window while fewer than maxKeys others arrive', () => {
    let now = 0;
    const limiter = new RateLimiter(2, 60_000, () => now, 100);
    for (let i = 0; i < 50; i++) limiter.hit(`idle-${i}`);
    now = 60_000;
    limiter.hit('client');
    limiter.hit('client');
    for (let i = 0; i < 90; i++) limiter.hit(`new-${i}`);
    // The 50 idle keys made room; the client's count survived.
    assert.equal(limiter.hit('client').allowed, false);
    limiter.stop();
  });
});

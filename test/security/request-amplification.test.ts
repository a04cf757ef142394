import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';

/**
 * Issue 17 finding 5: an anonymous POST /v1/emails made the api read and validate up to
 * 14 MB, check every entry of a record and answer every issue (8 MB with 600k headers took
 * 6 s and answered 82 MB); 3M nested `[` in metadata ended in a 500.
 */
interface ErrorBody {
  error: { code: string; message: string; details?: { fields?: unknown[]; omittedFields?: number } };
}

const base = { from: 'news@example.com', to: 'rcpt@example.net', subject: 'Hi', text: 'Hello' };

/** About 8 MB: 600k custom headers, every one of them also invalid as a header name. */
function manyHeaders(): string {
  const parts: string[] = [];
  for (let i = 0; i < 600_000; i++) parts.push(`"h${i}":"v"`);
  return `${JSON.stringify(base).slice(0, -1)},"headers":{${parts.join(',')}}}`;
}

describe('request amplification on POST /v1/emails (issue 17 finding 5)', () => {
  let app: Appliance;
  let token: string;
  before(async () => {
    app = await startAppliance({ processes: ['api'] });
    token = (await app.api.register()).token;
  });
  after(async () => {
    await app.stop();
  });

  it('refuses a large anonymous body with 401 and a small answer', async () => {
    const body = manyHeaders();
    assert.ok(body.length > 8_000_000);
    const res = await app.api.post<ErrorBody>('/v1/emails', { body });
    assert.equal(res.status, 401);
    assert.equal(res.body.error.code, 'UNAUTHORIZED');
    assert.ok(res.text.length < 1000, `answer of ${res.text.length} bytes`);
    // The connection stays usable: the unread body was discarded, not parsed.
    assert.equal((await app.api.get('/health')).status, 200);
  });

  it('answers 401 before the rest of a large anonymous body has been sent', async () => {
    // 8 MB declared, 1 KB sent: only a server that does not wait for the body can answer.
    const url = new URL('/v1/emails', app.baseUrl);
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(8_000_000) },
      });
      const timer = setTimeout(() => {
        req.destroy();
        reject(new Error('no answer while the body was incomplete'));
      }, 10_000);
      req.on('response', (res) => {
        clearTimeout(timer);
        res.resume();
        req.destroy();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      req.write(`{"headers":{${'"h":"v",'.repeat(128)}`);
    });
    assert.equal(status, 401);
  });

  it('answers the same body, authenticated, with a bounded VALIDATION_ERROR', async () => {
    const res = await app.api.post<ErrorBody>('/v1/emails', { token, body: manyHeaders() });
    assert.equal(res.status, 422);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    // Refused by the scan before JSON.parse: 600k members are far more than any send holds.
    assert.match(res.body.error.message, /more than 100000 values/);
    assert.ok((res.body.error.details?.fields ?? []).length <= 20);
    assert.ok(res.text.length < 4000, `answer of ${res.text.length} bytes`);
  });

  it('lists at most 20 issues and counts the rest', async () => {
    // 50 headers and 50 tags, each invalid: 100 issues within the collection bounds.
    const headers = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`Bad${i}`, 'v']));
    const tags = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`bad tag ${i}`, 'v']));
    const res = await app.api.post<ErrorBody>('/v1/emails', { body: { ...base, headers, tags } });
    assert.equal(res.status, 422);
    assert.equal(res.body.error.details?.fields?.length, 20);
    assert.equal(res.body.error.details?.omittedFields, 80);
  });

  it('cuts a field message that would list every unknown key', async () => {
    const extra = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`unknownKey${i}`, 1]));
    const res = await app.api.post<ErrorBody>('/v1/emails', { body: { ...base, ...extra } });
    assert.equal(res.status, 422);
    assert.ok(res.text.length < 4000, `answer of ${res.text.length} bytes`);
  });

  it('refuses 3M nested arrays in metadata with 422, not 500', async () => {
    const deep = `${JSON.stringify(base).slice(0, -1)},"metadata":{"a":${'['.repeat(3_000_000)}${']'.repeat(3_000_000)}}}`;
    const res = await app.api.post<ErrorBody>('/v1/emails', { token, body: deep });
    assert.equal(res.status, 422);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  });

  it('refuses JSON nested deeper than 32 levels on a small anonymous body too', async () => {
    const deep = `${JSON.stringify(base).slice(0, -1)},"metadata":{"a":${'['.repeat(40)}${']'.repeat(40)}}}`;
    const res = await app.api.post<ErrorBody>('/v1/emails', { body: deep });
    assert.equal(res.status, 422);
    assert.match(res.body.error.message, /nested deeper than 32/);
  });

  it('keeps validation before authentication for a small body', async () => {
    const res = await app.api.post<ErrorBody>('/v1/emails', { body: { ...base, text: undefined } });
    assert.equal(res.status, 422);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  });

  it('caps the anonymous credential bodies', async () => {
    const padding = 'x'.repeat(100_000);
    for (const path of ['/v1/auth/register', '/v1/auth/login']) {
      const res = await app.api.post<ErrorBody>(path, {
        body: { email: 'a@example.com', password: padding, name: 'A' },
      });
      assert.equal(res.status, 413, path);
    }
  });
});

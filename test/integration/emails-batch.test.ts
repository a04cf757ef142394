import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { addVerifiedDomain } from '../helpers/verified-domain';

interface ErrorBody {
  error: {
    code: string;
    message: string;
    details: Record<string, unknown> & { fields?: { field: string }[] };
  };
}
interface BatchBody {
  data: { id: string; status: string; createdAt: string }[];
}

describe('POST /v1/emails/batch: up to 100 messages, all or nothing', () => {
  let dns: FakeDns;
  let app: Appliance;

  before(async () => {
    dns = await startDnsServer();
    // api only: accepted messages stay queued for inspection. A small hourly allowance
    // shows the batch counted as a whole.
    app = await startAppliance({
      processes: ['api'],
      env: { DNS_SERVERS: dns.address, RATE_LIMIT_EMAILS_PER_HOUR: '10', NEW_ACCOUNT_EMAILS_PER_HOUR: '10' },
    });
  });
  after(async () => {
    await app.stop();
    await dns.close();
  });

  let accounts = 0;
  async function account() {
    const { apiKey, token } = await app.api.registerWithKey();
    const domain = `batch${++accounts}.example.com`;
    await addVerifiedDomain(app, dns, token, domain);
    const message = (to: unknown, extra: Record<string, unknown> = {}) => ({
      from: `hello@${domain}`,
      to,
      subject: 'Hi',
      text: 'Hello',
      ...extra,
    });
    const batch = (body: unknown, headers?: Record<string, string>) =>
      app.api.post<BatchBody & ErrorBody>('/v1/emails/batch', { token: apiKey, body, headers });
    const count = async () =>
      (await app.api.get<{ data: unknown[] }>('/v1/emails?limit=100', { token: apiKey })).body.data.length;
    return { apiKey, token, message, batch, count };
  }

  it('queues every message: 202 {data:[{id,status,createdAt}]} in the order given', async () => {
    const a = await account();
    const res = await a.batch([
      a.message('one@example.org', { subject: 'first' }),
      a.message(['two@example.org', 'three@example.org'], {
        subject: 'second',
        scheduledAt: new Date(Date.now() + 3600_000).toISOString(),
      }),
    ]);
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.data.length, 2);
    assert.ok(
      res.body.data.every((d) => /^email_/.test(d.id) && d.status === 'queued' && Date.parse(d.createdAt)),
    );
    assert.equal(res.headers.get('x-ratelimit-remaining'), '7');
    const subjects = [];
    for (const d of res.body.data) {
      const got = await app.api.get<{ subject: string; status: string }>(`/v1/emails/${d.id}`, {
        token: a.apiKey,
      });
      assert.equal(got.status, 200);
      subjects.push(got.body.subject);
    }
    assert.deepEqual(subjects, ['first', 'second']);
  });

  it('names each invalid message by position ([1].to) and queues nothing', async () => {
    const a = await account();
    const res = await a.batch([
      a.message('ok@example.org'),
      a.message(42),
      { ...a.message('x@example.org'), subject: undefined },
    ]);
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    const fields = res.body.error.details.fields?.map((f) => f.field) ?? [];
    assert.ok(fields.includes('[1].to'), JSON.stringify(fields));
    assert.ok(fields.includes('[2].subject'), JSON.stringify(fields));
    assert.equal(await a.count(), 0);
  });

  it('refuses an empty batch and one over 100 messages', async () => {
    const a = await account();
    assert.equal((await a.batch([])).status, 422);
    const big = Array.from({ length: 101 }, () => a.message('x@example.org'));
    const res = await a.batch(big);
    assert.equal(res.status, 422);
    assert.match(res.body.error.message, /1 to 100/);
    assert.equal(await a.count(), 0);
  });

  it('is one transaction: a refusal of the second message queues not even the first', async () => {
    const a = await account();
    const sup = await app.api.post('/v1/suppressions', {
      token: a.token,
      body: { email: 'gone@example.org', type: 'manual' },
    });
    assert.equal(sup.status, 201, sup.text);
    const res = await a.batch([a.message('fine@example.org'), a.message('gone@example.org')]);
    assert.equal(res.status, 403, res.text);
    assert.equal(res.body.error.code, 'SUPPRESSED_RECIPIENT');
    assert.equal(res.body.error.details.index, 1);
    // A refusal found before the commit (an unusable recipient) names its message too.
    const bad = await a.batch([a.message('fine@example.org'), a.message('not an address')]);
    assert.equal(bad.status, 422, bad.text);
    assert.equal(bad.body.error.code, 'INVALID_RECIPIENT');
    assert.equal(bad.body.error.details.index, 1);
    assert.equal(await a.count(), 0);
  });

  it('counts the quota for the whole batch: over the allowance, nothing is queued', async () => {
    const a = await account();
    const four = ['a@example.org', 'b@example.org', 'c@example.org', 'd@example.org'];
    const res = await a.batch([a.message(four), a.message(four), a.message(four)]);
    assert.equal(res.status, 429, res.text);
    assert.equal(res.body.error.code, 'SENDING_LIMIT_EXCEEDED');
    assert.equal(await a.count(), 0);
    const fits = await a.batch([a.message(four), a.message(four)]);
    assert.equal(fits.status, 202, fits.text);
    assert.equal(fits.headers.get('x-ratelimit-remaining'), '2');
  });

  it('takes an Idempotency-Key for the batch: the same body answers the same ids, another is 409', async () => {
    const a = await account();
    const body = [a.message('i1@example.org'), a.message('i2@example.org')];
    const key = { 'Idempotency-Key': 'batch-1' };
    const first = await a.batch(body, key);
    assert.equal(first.status, 202, first.text);
    const again = await a.batch(body, key);
    assert.equal(again.status, 202);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body);
    const other = await a.batch([a.message('i3@example.org')], key);
    assert.equal(other.status, 409);
    assert.equal(await a.count(), 2);
  });

  it('authenticates: no key is 401 and queues nothing', async () => {
    const res = await app.api.post<ErrorBody>('/v1/emails/batch', {
      body: [{ from: 'a@batch1.example.com', to: 'x@example.org', subject: 's', text: 't' }],
    });
    assert.equal(res.status, 401);
  });
});

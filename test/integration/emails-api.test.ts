import os from 'node:os';
import { defaultNodeName } from '../../src/config/config-table';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { addVerifiedDomain } from '../helpers/verified-domain';

interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

interface EmailBody {
  id: string;
  status: string;
  subject: string;
  fromAddress: string;
  metadata: unknown;
  tags: unknown;
  recipients: { email: string; type: string; status: string }[];
  events?: { type: string; message: string | null }[];
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64');

describe('POST /v1/emails: the send pipeline up to the queue', () => {
  let dns: FakeDns;
  let app: Appliance;
  let apiKey: string;
  let token: string;
  let domainId: string;

  before(async () => {
    dns = await startDnsServer();
    // api only: nothing is sent, so every accepted message stays queued for inspection.
    app = await startAppliance({
      processes: ['api'],
      env: {
        DNS_SERVERS: dns.address,
        RATE_LIMIT_EMAILS_PER_HOUR: '1000',
        NEW_ACCOUNT_EMAILS_PER_HOUR: '1000',
      },
    });
    ({ apiKey, token } = await app.api.registerWithKey());
    domainId = (await addVerifiedDomain(app, dns, token, 'sender.example.com')).id;
  });
  after(async () => {
    await app.stop();
    await dns.close();
  });

  const send = (body: Record<string, unknown>, headers?: Record<string, string>, key = apiKey) =>
    app.api.post<EmailBody & ErrorBody & { createdAt: string }>('/v1/emails', { token: key, body, headers });

  const valid = {
    from: 'Sender <hello@sender.example.com>',
    to: ['a@example.org', 'B@Example.org'],
    cc: 'c@example.org',
    bcc: ['d@example.org'],
    subject: 'Hello',
    html: '<p>Hi <img src="cid:logo"></p>',
    text: 'Hi',
    tags: { campaign: 'welcome' },
    metadata: { orderId: 42, nested: { a: [1, 2] } },
    headers: { 'X-Campaign': 'w1' },
    attachments: [
      { filename: 'logo.png', content: PNG, contentType: 'image/png', cid: 'logo' },
      { filename: 'a.txt', content: Buffer.from('hello').toString('base64') },
    ],
  };

  it('accepts a valid message: 202 queued, stored with recipients, events and quota headers', async () => {
    const res = await send(valid);
    assert.equal(res.status, 202, res.text);
    assert.match(res.body.id, /^email_[0-9a-z]{26}$/);
    assert.equal(res.body.status, 'queued');
    assert.ok(Date.parse(res.body.createdAt));
    assert.equal(res.headers.get('x-ratelimit-limit'), '1000');
    assert.equal(res.headers.get('x-ratelimit-remaining'), '996');
    // The same numbers as draft-ietf-httpapi-ratelimit-headers names them.
    assert.equal(res.headers.get('ratelimit-policy'), '"hour";q=1000;w=3600, "day";q=1000;w=86400');
    assert.equal(res.headers.get('ratelimit'), '"hour";r=996, "day";r=996');

    const got = await app.api.get<EmailBody>(`/v1/emails/${res.body.id}`, { token: apiKey });
    assert.equal(got.status, 200);
    assert.equal(got.body.status, 'queued');
    assert.equal(got.body.fromAddress, 'hello@sender.example.com');
    assert.deepEqual(got.body.metadata, valid.metadata);
    assert.deepEqual(got.body.tags, valid.tags);
    assert.deepEqual(
      got.body.recipients.map((r) => [r.email, r.type, r.status]),
      [
        ['a@example.org', 'to', 'queued'],
        ['b@example.org', 'to', 'queued'],
        ['c@example.org', 'cc', 'queued'],
        ['d@example.org', 'bcc', 'queued'],
      ],
    );
    assert.deepEqual(
      got.body.events?.map((e) => e.type),
      ['queued'],
    );
    // The detail names its body parts and attachments (never their content).
    const detail = got.body as unknown as {
      parts: unknown;
      attachments: { filename: string; contentType: string; sizeBytes: number; inline: boolean }[];
    };
    assert.deepEqual(detail.parts, { html: true, text: true });
    assert.deepEqual(
      detail.attachments.map((a) => [a.filename, a.contentType, a.inline]),
      [
        ['logo.png', 'image/png', true],
        ['a.txt', 'application/octet-stream', false],
      ],
    );
    assert.equal(detail.attachments[1]?.sizeBytes, 5);
  });

  it('logs one line per send: the access line carries the email_queued event', async () => {
    const res = await send({ ...valid, attachments: undefined });
    assert.equal(res.status, 202, res.text);
    const id = res.body.id;
    const mentions = (): Record<string, unknown>[] =>
      app.lines.filter((l) => l.includes(id)).map((l) => JSON.parse(l) as Record<string, unknown>);
    // The line is written before the answer; this process reads the pipe asynchronously.
    for (let i = 0; i < 100 && mentions().length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    const lines = mentions();
    assert.equal(lines.length, 1, JSON.stringify(lines));
    assert.deepEqual(
      { ...lines[0], time: undefined, pid: undefined, ms: undefined, userId: undefined },
      {
        level: 'info',
        time: undefined,
        process: 'api',
        // NODE_NAME unset: the host name (issue 23).
        node: defaultNodeName(os.hostname()),
        pid: undefined,
        event: 'email_queued',
        emailId: id,
        userId: undefined,
        domainId,
        recipients: 4,
        scheduledAt: null,
        mode: 'live',
        method: 'POST',
        path: '/v1/emails',
        status: 202,
        ms: undefined,
        msg: 'email queued',
      },
    );
    assert.equal(typeof lines[0]?.ms, 'number');
    assert.match(String(lines[0]?.userId), /^usr_/);
  });

  it('rejects bad input with the spec codes and changes nothing', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ ...valid, subject: 'two\r\nlines' }, 422, 'VALIDATION_ERROR'],
      [{ ...valid, html: undefined, text: undefined }, 422, 'VALIDATION_ERROR'],
      [{ ...valid, headers: { Bcc: 'x@example.org' } }, 422, 'VALIDATION_ERROR'],
      [{ ...valid, headers: { 'X-Evil': 'a\r\nBcc: x@example.org' } }, 422, 'VALIDATION_ERROR'],
      [{ ...valid, attachments: [{ filename: '../etc/passwd', content: PNG }] }, 422, 'VALIDATION_ERROR'],
      [
        { ...valid, attachments: [{ filename: 'a.png', content: 'data:image/png;base64,AAAA' }] },
        422,
        'VALIDATION_ERROR',
      ],
      [
        { ...valid, attachments: [{ filename: 'a.png', content: PNG, cid: 'nope' }] },
        422,
        'VALIDATION_ERROR',
      ],
      [
        { ...valid, attachments: Array.from({ length: 11 }, () => ({ filename: 'a', content: PNG })) },
        422,
        'VALIDATION_ERROR',
      ],
      [{ ...valid, unknownField: 1 }, 422, 'VALIDATION_ERROR'],
      [{ ...valid, from: 'not an address' }, 422, 'INVALID_FROM_ADDRESS'],
      [{ ...valid, from: 'x@other.example.net' }, 404, 'DOMAIN_NOT_FOUND'],
      [{ ...valid, to: ['ok@example.org', 'bad@@example.org'] }, 422, 'INVALID_RECIPIENT'],
      [{ ...valid, to: ['"x"@example.org'] }, 422, 'INVALID_RECIPIENT'],
      [
        { ...valid, to: Array.from({ length: 51 }, (_, i) => `r${i}@example.org`) },
        422,
        'TOO_MANY_RECIPIENTS',
      ],
    ];
    const before = await app.api.get<{ usage: { hour: { used: number } } }>('/v1/settings', { token });
    for (const [body, status, code] of cases) {
      const res = await send(body);
      assert.equal(res.status, status, `${code}: ${res.text}`);
      assert.equal(res.body.error.code, code, res.text);
    }
    const after = await app.api.get<{ usage: { hour: { used: number } } }>('/v1/settings', { token });
    assert.equal(after.body.usage.hour.used, before.body.usage.hour.used);
    const invalid = await send({ ...valid, subject: 'a\nb' });
    assert.equal((invalid.body.error.details?.fields as { field: string }[])[0]?.field, 'subject');
  });

  it('validates the body before authenticating, as the spec orders the pipeline', async () => {
    const res = await send({ ...valid, subject: undefined }, undefined, 're_live_unknown');
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    const auth = await send(valid, undefined, 're_live_unknown');
    assert.equal(auth.body.error.code, 'INVALID_API_KEY');
  });

  it('refuses an unverified domain, suppressed recipients and oversized messages', async () => {
    const pending = await app.api.post<{ id: string }>('/v1/domains', {
      token,
      body: { domain: 'pending.example.com' },
    });
    assert.equal(pending.status, 201);
    const unverified = await send({ ...valid, from: 'a@pending.example.com' });
    assert.equal(unverified.status, 403);
    assert.equal(unverified.body.error.code, 'DOMAIN_NOT_VERIFIED');

    const sup = await app.api.post<{ id: string }>('/v1/suppressions', {
      token: apiKey,
      body: { email: 'Blocked@Example.org', type: 'manual', reason: 'asked' },
    });
    assert.equal(sup.status, 201, sup.text);
    const suppressed = await send({ ...valid, to: ['ok@example.org', 'blocked@example.org'] });
    assert.equal(suppressed.status, 403);
    assert.equal(suppressed.body.error.code, 'SUPPRESSED_RECIPIENT');
    assert.deepEqual(suppressed.body.error.details?.recipients, ['blocked@example.org']);
    // Why, since when, and how to lift it.
    assert.match(
      suppressed.body.error.message,
      /^Not sent: a recipient is suppressed on this account: blocked@example\.org \(added by hand since \d{4}-\d\d-\d\dT[\d:.]+Z\)\. .*DELETE \/v1\/suppressions\/\{email\}/,
    );
    const dup = await app.api.post<ErrorBody>('/v1/suppressions', {
      token: apiKey,
      body: { email: 'blocked@example.org', type: 'manual' },
    });
    assert.equal(dup.body.error.code, 'SUPPRESSION_ALREADY_EXISTS');
    const list = await app.api.get<{ data: { id: string; email: string }[] }>(
      '/v1/suppressions?type=manual',
      {
        token: apiKey,
      },
    );
    assert.deepEqual(
      list.body.data.map((s) => s.email),
      ['blocked@example.org'],
    );
    assert.equal((await app.api.delete(`/v1/suppressions/${sup.body.id}`, { token: apiKey })).status, 200);
    assert.equal((await send({ ...valid, to: 'blocked@example.org' })).status, 202);

    const big = Buffer.alloc(10 * 1024 * 1024 + 1).toString('base64');
    const tooLarge = await send({ ...valid, attachments: [{ filename: 'big.bin', content: big }] });
    assert.equal(tooLarge.status, 413);
    assert.equal(tooLarge.body.error.code, 'EMAIL_TOO_LARGE');
  });

  it('honours restrictSenders with the allowed addresses named', async () => {
    const patched = await app.api.patch(`/v1/domains/${domainId}`, {
      token,
      body: { addresses: ['hello', 'billing'], restrictSenders: true },
    });
    assert.equal(patched.status, 200, patched.text);
    const res = await send({ ...valid, from: 'sales@sender.example.com' });
    assert.equal(res.body.error.code, 'INVALID_FROM_ADDRESS');
    assert.match(res.body.error.message, /hello@sender\.example\.com/);
    assert.equal((await send(valid)).status, 202);
    await app.api.patch(`/v1/domains/${domainId}`, { token, body: { restrictSenders: false } });
  });

  it('replays an Idempotency-Key with the same body and refuses it with another', async () => {
    const headers = { 'idempotency-key': 'order-1234' };
    const first = await send(valid, headers);
    const again = await send(valid, headers);
    assert.equal(first.status, 202);
    assert.equal(again.status, 202);
    assert.equal(again.body.id, first.body.id);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    const other = await send({ ...valid, subject: 'Different' }, headers);
    assert.equal(other.status, 409);
    assert.equal(other.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
  });

  it('lists with filters and an opaque cursor, never another account’s mail', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await send({ ...valid, to: `page${i}@example.org`, cc: undefined, bcc: undefined })).body.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: {
        status: number;
        body: { data: EmailBody[]; hasMore: boolean; nextCursor: string | null };
      } = await app.api.get(`/v1/emails?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { token: apiKey });
      assert.equal(page.status, 200);
      assert.ok(page.body.data.length <= 2);
      seen.push(...page.body.data.map((e) => e.id));
      cursor = page.body.hasMore ? page.body.nextCursor : null;
    } while (cursor);
    assert.equal(new Set(seen).size, seen.length);
    assert.deepEqual(seen.slice(0, 5), [...ids].reverse());

    const byRecipient = await app.api.get<{ data: EmailBody[] }>('/v1/emails?recipient=PAGE3@example.org', {
      token: apiKey,
    });
    assert.deepEqual(
      byRecipient.body.data.map((e) => e.id),
      [ids[3]],
    );
    const byStatus = await app.api.get<{ data: EmailBody[] }>('/v1/emails?status=delivered', {
      token: apiKey,
    });
    assert.deepEqual(byStatus.body.data, []);
    const byDomain = await app.api.get<{ data: EmailBody[] }>(`/v1/emails?domainId=${domainId}&limit=1`, {
      token: apiKey,
    });
    assert.equal(byDomain.body.data.length, 1);
    assert.equal((await app.api.get<ErrorBody>('/v1/emails?limit=101', { token: apiKey })).status, 422);
    assert.equal((await app.api.get<ErrorBody>('/v1/emails?cursor=garbage', { token: apiKey })).status, 422);

    const stranger = await app.api.registerWithKey();
    const foreign = await app.api.get<ErrorBody>(`/v1/emails/${ids[0]}`, { token: stranger.apiKey });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error.code, 'EMAIL_NOT_FOUND');
    const theirs = await app.api.get<{ data: unknown[] }>('/v1/emails', { token: stranger.apiKey });
    assert.deepEqual(theirs.body.data, []);
  });

  it('cancels a scheduled message and gives its quota back', async () => {
    const at = new Date(Date.now() + 3600_000).toISOString();
    const res = await send({ ...valid, scheduledAt: at });
    assert.equal(res.status, 202);
    const before = await app.api.get<{ usage: { hour: { used: number } } }>('/v1/settings', { token });
    const cancelled = await app.api.post<EmailBody>(`/v1/emails/${res.body.id}/cancel`, { token: apiKey });
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.body.status, 'cancelled');
    assert.ok(cancelled.body.events?.some((e) => e.type === 'cancelled'));
    const after = await app.api.get<{ usage: { hour: { used: number } } }>('/v1/settings', { token });
    assert.equal(after.body.usage.hour.used, before.body.usage.hour.used - 4);
    const again = await app.api.post<ErrorBody>(`/v1/emails/${res.body.id}/cancel`, { token: apiKey });
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'EMAIL_NOT_CANCELLABLE');
  });

  it('refuses to delete a domain with sending history', async () => {
    const res = await app.api.delete<ErrorBody>(`/v1/domains/${domainId}`, { token });
    assert.equal(res.status, 409);
    assert.equal(res.body.error.code, 'DOMAIN_HAS_HISTORY');
  });
});

describe('sending quotas', () => {
  let dns: FakeDns;
  let app: Appliance;

  before(async () => {
    dns = await startDnsServer();
    app = await startAppliance({
      processes: ['api'],
      env: { DNS_SERVERS: dns.address, RATE_LIMIT_EMAILS_PER_HOUR: '100', NEW_ACCOUNT_EMAILS_PER_HOUR: '5' },
    });
  });
  after(async () => {
    await app.stop();
    await dns.close();
  });

  it('counts per recipient, refuses the send that would exceed, and consumes nothing when refused', async () => {
    const { apiKey, token } = await app.api.registerWithKey();
    await addVerifiedDomain(app, dns, token, 'quota.example.com');
    const msg = (to: string[]) => ({ from: 'q@quota.example.com', to, subject: 's', text: 't' });
    const first = await app.api.post('/v1/emails', {
      token: apiKey,
      body: msg(['a@x.example.org', 'b@x.example.org', 'c@x.example.org']),
    });
    assert.equal(first.status, 202);
    assert.equal(first.headers.get('x-ratelimit-remaining'), '2');
    const over = await app.api.post<ErrorBody>('/v1/emails', {
      token: apiKey,
      body: msg(['d@x.example.org', 'e@x.example.org', 'f@x.example.org']),
    });
    assert.equal(over.status, 429);
    assert.equal(over.body.error.code, 'SENDING_LIMIT_EXCEEDED');
    assert.equal(over.body.error.details?.window, 'hour');
    const retryAfter = Number(over.headers.get('retry-after'));
    assert.ok(retryAfter > 0);
    assert.equal(over.headers.get('ratelimit'), `"hour";r=0;t=${retryAfter}`);
    assert.equal(over.headers.get('ratelimit-policy'), '"hour";q=5;w=3600');
    assert.match(over.body.error.message, /more can be sent from \d{4}-\d\d-\d\dT[\d:.]+Z \(Retry-After\)/);
    assert.match(over.body.error.message, /the operator can raise the account’s allowance/);
    const fits = await app.api.post('/v1/emails', {
      token: apiKey,
      body: msg(['d@x.example.org', 'e@x.example.org']),
    });
    assert.equal(fits.status, 202);
    const settings = await app.api.get<{ usage: { hour: { used: number; limit: number } } }>('/v1/settings', {
      token,
    });
    assert.deepEqual(settings.body.usage.hour, { used: 5, limit: 5 });
  });

  it('lets an account lower its limits but not raise them; the operator may raise', async () => {
    const { apiKey, token, userId } = await app.api.registerWithKey();
    await addVerifiedDomain(app, dns, token, 'limits.example.com');
    const raise = await app.api.patch<ErrorBody>('/v1/settings/limits', {
      token,
      body: { emailsPerHour: 500 },
    });
    assert.equal(raise.status, 403);
    assert.equal(raise.body.error.code, 'FORBIDDEN');
    const lower = await app.api.patch<{ limits: { emailsPerHour: { effective: number } } }>(
      '/v1/settings/limits',
      {
        token,
        body: { emailsPerHour: 1 },
      },
    );
    assert.equal(lower.status, 200);
    assert.equal(lower.body.limits.emailsPerHour.effective, 1);
    const msg = { from: 'q@limits.example.com', to: 'a@x.example.org', subject: 's', text: 't' };
    assert.equal((await app.api.post('/v1/emails', { token: apiKey, body: msg })).status, 202);
    assert.equal((await app.api.post('/v1/emails', { token: apiKey, body: msg })).status, 429);
    const op = await app.api.patch(`/internal/accounts/${userId}/limits`, {
      headers: { 'x-internal-token': app.internalToken },
      body: { emailsPerHour: 500 },
    });
    assert.equal(op.status, 200);
    // The account's own lower limit stays until the account lifts it (issue 17 finding 7).
    assert.equal((await app.api.post('/v1/emails', { token: apiKey, body: msg })).status, 429);
    const lift = await app.api.patch('/v1/settings/limits', { token, body: { emailsPerHour: 500 } });
    assert.equal(lift.status, 200);
    assert.equal((await app.api.post('/v1/emails', { token: apiKey, body: msg })).status, 202);
  });
});

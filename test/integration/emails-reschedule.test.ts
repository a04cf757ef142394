import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../src/db/connect';
import { openApplianceDb } from '../helpers/open-database';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { addVerifiedDomain } from '../helpers/verified-domain';

interface EmailBody {
  id: string;
  status: string;
  scheduledAt: string | null;
  events: { type: string; message: string | null }[];
}
interface ErrorBody {
  error: { code: string; details?: Record<string, unknown> };
}

describe('PATCH /v1/emails/{id}: reschedule a still-scheduled message', () => {
  let dns: FakeDns;
  let app: Appliance;
  let db: Db;
  let apiKey: string;

  before(async () => {
    dns = await startDnsServer();
    app = await startAppliance({ processes: ['api'], env: { DNS_SERVERS: dns.address } });
    let token: string;
    ({ apiKey, token } = await app.api.registerWithKey());
    await addVerifiedDomain(app, dns, token, 'later.example.com');
    db = openApplianceDb(app);
  });
  after(async () => {
    await db.destroy();
    await app.stop();
    await dns.close();
  });

  const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();
  const send = async (scheduledAt?: string) => {
    const res = await app.api.post<{ id: string }>('/v1/emails', {
      token: apiKey,
      body: { from: 'a@later.example.com', to: 'x@example.org', subject: 's', text: 't', scheduledAt },
    });
    assert.equal(res.status, 202, res.text);
    return res.body.id;
  };
  const patch = (id: string, body: unknown) =>
    app.api.patch<EmailBody & ErrorBody>(`/v1/emails/${id}`, { token: apiKey, body });
  const jobRunAt = async (id: string) =>
    (
      await db
        .selectFrom('jobs')
        .select('run_at')
        .where('queue', '=', 'email-send')
        .where('dedupe_key', '=', id)
        .executeTakeFirstOrThrow()
    ).run_at;

  it('moves the message and its send job together, and says so on the timeline', async () => {
    const id = await send(inHours(1));
    const later = inHours(5);
    const res = await patch(id, { scheduledAt: later });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.scheduledAt, later);
    assert.equal(res.body.status, 'queued');
    assert.deepEqual(
      res.body.events.map((e) => e.type),
      ['queued', 'rescheduled'],
    );
    assert.equal(await jobRunAt(id), later);
  });

  it('applies the send-time rules: RFC 3339, at most 30 days ahead, nothing else in the body', async () => {
    const id = await send(inHours(1));
    for (const body of [
      { scheduledAt: 'tomorrow' },
      { scheduledAt: inHours(24 * 31) },
      {},
      { scheduledAt: inHours(2), subject: 'x' },
    ]) {
      const res = await patch(id, body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    }
    const got = await app.api.get<EmailBody>(`/v1/emails/${id}`, { token: apiKey });
    assert.equal(await jobRunAt(id), got.body.scheduledAt);
  });

  it('is 409 EMAIL_NOT_SCHEDULED for a message sent now, cancelled, or already claimed', async () => {
    const now = await send();
    const res = await patch(now, { scheduledAt: inHours(1) });
    assert.equal(res.status, 409, res.text);
    assert.equal(res.body.error.code, 'EMAIL_NOT_SCHEDULED');

    const cancelled = await send(inHours(1));
    assert.equal((await app.api.post(`/v1/emails/${cancelled}/cancel`, { token: apiKey })).status, 200);
    assert.equal((await patch(cancelled, { scheduledAt: inHours(2) })).status, 409);

    // The worker took it (its job is running): the message stays as it was.
    const claimed = await send(inHours(1));
    const before = await jobRunAt(claimed);
    await db.updateTable('jobs').set({ state: 'running' }).where('dedupe_key', '=', claimed).execute();
    assert.equal((await patch(claimed, { scheduledAt: inHours(3) })).status, 409);
    const got = await app.api.get<EmailBody>(`/v1/emails/${claimed}`, { token: apiKey });
    assert.equal(got.body.scheduledAt, before);
    assert.equal(await jobRunAt(claimed), before);
  });

  it('is 404 for another account’s message', async () => {
    const id = await send(inHours(1));
    const other = await app.api.registerWithKey();
    const res = await app.api.patch<ErrorBody>(`/v1/emails/${id}`, {
      token: other.apiKey,
      body: { scheduledAt: inHours(2) },
    });
    assert.equal(res.status, 404);
    assert.equal(res.body.error.code, 'EMAIL_NOT_FOUND');
  });
});

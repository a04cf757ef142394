// Issue 20: every delivery also carries Standard Webhooks headers (and their svix-* aliases),
// checked with the unmodified Resend SDK's webhooks.verify against real deliveries of a real
// send; an endpoint may ask for Resend's payload; rotating the secret takes effect at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Resend } from 'resend';
import type { SendingAppliance } from '../helpers/sending-appliance';
import { startSendingAppliance } from '../helpers/sending-appliance';
import { waitUntil } from '../helpers/wait-until';
import type { ReceivedRequest, Receiver } from '../helpers/webhook-receiver';
import { startReceiver, verifySignature } from '../helpers/webhook-receiver';
import type { WebhookWorker } from '../helpers/webhook-worker';
import { startWebhookWorker } from '../helpers/webhook-worker';

const DOMAIN = 'hooks.example.com';
const resend = new Resend('re_unused');

interface Created {
  id: string;
  secret: string;
  payloadFormat: string;
}

/** What a Resend receiver does with a request: the SDK's own check (Standard Webhooks). */
function resendVerify(q: ReceivedRequest, secret: string, prefix: 'webhook' | 'svix'): unknown {
  return resend.webhooks.verify({
    payload: q.body,
    headers: {
      id: q.headers[`${prefix}-id`] as string,
      timestamp: q.headers[`${prefix}-timestamp`] as string,
      signature: q.headers[`${prefix}-signature`] as string,
    },
    webhookSecret: secret,
  });
}

describe('webhook signatures: Standard Webhooks beside the spec’s, Resend payloads, secret rotation', () => {
  let s: SendingAppliance;
  let worker: WebhookWorker;
  let spec: Receiver;
  let compat: Receiver;

  before(async () => {
    spec = await startReceiver();
    compat = await startReceiver();
    s = await startSendingAppliance(DOMAIN, { WEBHOOK_ALLOW_PRIVATE: 'true' });
    worker = await startWebhookWorker(s.app.env, { dispatchIntervalMs: 100 });
  });
  after(async () => {
    await worker.stop();
    await s.stop();
    await spec.close();
    await compat.close();
  });

  const createHook = async (url: string, payloadFormat?: string): Promise<Created> => {
    const res = await s.app.api.post<Created>('/v1/webhooks', {
      token: s.apiKey,
      body: { url, events: ['email.sent', 'email.delivered', 'email.bounced'], payloadFormat },
    });
    assert.equal(res.status, 201, res.text);
    return res.body;
  };
  const send = async (to: string[]): Promise<string> => {
    const res = await s.app.api.post<{ id: string }>('/v1/emails', {
      token: s.apiKey,
      body: { from: `Hooks <news@${DOMAIN}>`, to, subject: 'Signed', text: 'Hi', tags: { plan: 'pro' } },
    });
    assert.equal(res.status, 202, res.text);
    return res.body.id;
  };

  let specHook: Created;
  let compatHook: Created;

  it('signs every delivery three ways over one timestamp; Resend’s SDK verifies it', async () => {
    specHook = await createHook(spec.url);
    compatHook = await createHook(compat.url, 'resend');
    assert.equal(specHook.payloadFormat, 'mailroom');
    assert.equal(compatHook.payloadFormat, 'resend');
    // whsec_ + standard base64 of 32 bytes (the Standard Webhooks secret form).
    assert.match(specHook.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);

    s.sink.setRecipientBehaviour('gone@dest.test', { code: 550, message: '5.1.1 No such user here' });
    const emailId = await send(['ok@dest.test', 'gone@dest.test']);
    const events = (r: Receiver) => r.requests.map((q) => q.headers['x-mail-event']);
    await waitUntil(
      'sent, delivered and bounced at both receivers',
      () =>
        [spec, compat].every((r) =>
          ['email.sent', 'email.delivered', 'email.bounced'].every((e) => events(r).includes(e)),
        ),
      60_000,
    );

    for (const q of spec.requests) {
      assert.ok(verifySignature(specHook.secret, q.headers['x-mail-signature'] as string, q.body));
      assert.deepEqual(resendVerify(q, specHook.secret, 'webhook'), JSON.parse(q.body));
      assert.deepEqual(resendVerify(q, specHook.secret, 'svix'), JSON.parse(q.body));
      assert.equal(q.headers['webhook-id'], q.headers['x-mail-delivery-id']);
      assert.equal(
        `t=${q.headers['webhook-timestamp'] as string}`,
        (q.headers['x-mail-signature'] as string).split(',')[0],
      );
      assert.throws(() => resendVerify(q, compatHook.secret, 'webhook'), 'another secret does not verify');
      assert.equal((JSON.parse(q.body) as { emailId: string }).emailId, emailId);
    }

    for (const q of compat.requests) {
      assert.ok(verifySignature(compatHook.secret, q.headers['x-mail-signature'] as string, q.body));
      const body = resendVerify(q, compatHook.secret, 'svix') as {
        type: string;
        created_at: string;
        data: Record<string, unknown>;
      };
      assert.equal(body.type, q.headers['x-mail-event']);
      assert.ok(Date.parse(body.created_at));
      assert.equal(body.data.email_id, emailId);
      assert.equal(body.data.from, `Hooks <news@${DOMAIN}>`);
      assert.deepEqual(body.data.to, ['ok@dest.test', 'gone@dest.test']);
      assert.equal(body.data.subject, 'Signed');
      assert.deepEqual(body.data.tags, { plan: 'pro' });
      assert.match(body.data.message_id as string, new RegExp(`@${DOMAIN.replace(/\./g, '\\.')}>$`));
      if (body.type === 'email.bounced') {
        const bounce = body.data.bounce as { message: string; type: string };
        assert.match(bounce.message, /550|No such user/);
        assert.equal(bounce.type, 'Permanent');
      }
    }
  });

  it('rotate-secret answers a new secret once; the next deliveries are signed with it only', async () => {
    const res = await s.app.api.post<Created>(`/v1/webhooks/${specHook.id}/rotate-secret`, {
      token: s.apiKey,
    });
    assert.equal(res.status, 200, res.text);
    assert.match(res.body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.notEqual(res.body.secret, specHook.secret);
    const got = await s.app.api.get(`/v1/webhooks/${specHook.id}`, { token: s.apiKey });
    assert.ok(!got.text.includes(res.body.secret), 'the secret is not shown again');

    const seen = spec.requests.length;
    const emailId = await send(['again@dest.test']);
    await waitUntil(
      'a delivery after the rotation',
      () => spec.requests.slice(seen).some((q) => q.body.includes(emailId)),
      60_000,
    );
    const q = spec.requests.slice(seen).find((r) => r.body.includes(emailId));
    assert.ok(q);
    assert.ok(resendVerify(q, res.body.secret, 'webhook'));
    assert.ok(verifySignature(res.body.secret, q.headers['x-mail-signature'] as string, q.body));
    assert.throws(() => resendVerify(q, specHook.secret, 'webhook'));
    assert.ok(!verifySignature(specHook.secret, q.headers['x-mail-signature'] as string, q.body));

    const other = await s.app.api.registerWithKey();
    const foreign = await s.app.api.post(`/v1/webhooks/${specHook.id}/rotate-secret`, {
      token: other.apiKey,
    });
    assert.equal(foreign.status, 404);
  });

  it('switches an endpoint’s payload format with PATCH', async () => {
    const res = await s.app.api.patch<Created>(`/v1/webhooks/${specHook.id}`, {
      token: s.apiKey,
      body: { payloadFormat: 'resend' },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.payloadFormat, 'resend');
    const bad = await s.app.api.patch(`/v1/webhooks/${specHook.id}`, {
      token: s.apiKey,
      body: { payloadFormat: 'svix' },
    });
    assert.equal(bad.status, 422);
  });
});

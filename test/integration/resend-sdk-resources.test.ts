// Issue 20: the real, unmodified Resend Node SDK (resend@6.38.0) manages domains, API keys,
// webhooks and suppressions on the appliance through the compatible API at the host root, with
// Resend's shapes (`object`, snake_case, `{object:'list', has_more, data}`) and error bodies.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Resend } from 'resend';
import type { PublishedRecord } from '../helpers/dns-fixtures';
import { publish } from '../helpers/dns-fixtures';
import type { SendingAppliance } from '../helpers/sending-appliance';
import { startSendingAppliance } from '../helpers/sending-appliance';
import { waitUntil } from '../helpers/wait-until';
import type { ReceivedRequest, Receiver } from '../helpers/webhook-receiver';
import { startReceiver } from '../helpers/webhook-receiver';
import type { ShapeCheck } from '../helpers/openapi-shape';
import { openApiShapes } from '../helpers/openapi-shape';
import type { WebhookWorker } from '../helpers/webhook-worker';
import { startWebhookWorker } from '../helpers/webhook-worker';

describe('the Resend Node SDK against the compatible API: domains, keys, webhooks, suppressions', () => {
  let sending: SendingAppliance;
  let receiver: Receiver;
  /** The real webhook handlers, in this process, on the appliance's database. */
  let worker: WebhookWorker;
  /** With the account's API key, as an application holds it. */
  let resend: Resend;
  /** Every answer is also checked against the schema /openapi.json documents for it. */
  let shape: ShapeCheck;

  before(async () => {
    receiver = await startReceiver();
    sending = await startSendingAppliance('shop.example.com', { WEBHOOK_ALLOW_PRIVATE: 'true' });
    resend = new Resend(sending.apiKey, { baseUrl: sending.app.baseUrl });
    shape = await openApiShapes(sending.app.baseUrl);
    worker = await startWebhookWorker(sending.app.env, { dispatchIntervalMs: 100 });
  });
  after(async () => {
    await worker.stop();
    await sending.stop();
    await receiver.close();
  });

  it('domains.create, get, list, verify, update and remove', async () => {
    const created = await resend.domains.create({ name: 'news.example.com', region: 'eu-west-1' });
    assert.equal(created.error, null, JSON.stringify(created.error));
    const id = created.data.id;
    assert.match(id, /^dom_/);
    shape('ResendDomain', created.data);
    assert.equal(created.data?.name, 'news.example.com');
    assert.equal(created.data?.status, 'pending');
    assert.deepEqual(
      created.data?.records.map((r) => r.record),
      ['SPF', 'DKIM', 'DMARC', 'Return-Path'],
    );
    const dkim = created.data?.records.find((r) => r.record === 'DKIM');
    assert.equal(dkim?.type, 'TXT');
    assert.match(dkim?.value ?? '', /^v=DKIM1; k=rsa; p=/);

    const listed = await resend.domains.list();
    shape('ResendDomainList', listed.data);
    assert.equal(listed.data?.has_more, false);
    assert.deepEqual(listed.data?.data.map((d) => d.name).sort(), ['news.example.com', 'shop.example.com']);

    // Publish the records the appliance asked for (its own /v1 view has their full names), then verify.
    const v1 = await sending.app.api.get<{ records: PublishedRecord[] }>(`/v1/domains/${id}`, {
      token: sending.apiKey,
    });
    publish(sending.dns, v1.body.records);
    const verified = await resend.domains.verify(id);
    assert.deepEqual(verified.data, { object: 'domain', id });
    const got = await resend.domains.get(id);
    shape('ResendDomain', got.data);
    assert.equal(got.data?.status, 'verified');
    assert.ok(got.data?.records.every((r) => r.status === 'verified'));
    assert.deepEqual(got.data?.capabilities, { sending: 'enabled', receiving: 'disabled' });

    const updated = await resend.domains.update({ id, capabilities: { receiving: 'enabled' } });
    assert.deepEqual(updated.data, { object: 'domain', id });
    const receiving = await resend.domains.get(id);
    assert.equal(receiving.data?.capabilities.receiving, 'enabled');
    assert.ok(receiving.data?.records.some((r) => r.record === 'Receiving' && r.type === 'MX'));

    const tracking = await resend.domains.update({ id, openTracking: true });
    assert.equal(tracking.error?.statusCode, 501);
    assert.match(tracking.error?.message ?? '', /tracking/);

    const removed = await resend.domains.remove(id);
    assert.deepEqual(removed.data, { object: 'domain', id, deleted: true });
    shape('ResendDeleted', removed.data);
    const gone = await resend.domains.get(id);
    assert.equal(gone.error?.statusCode, 404);
    assert.equal(gone.error?.name, 'not_found');

    const invalid = await resend.domains.create({ name: 'not a domain' });
    assert.equal(invalid.error?.statusCode, 422);
    assert.equal(invalid.error?.name, 'validation_error');
  });

  it('apiKeys.create, list and remove; sending_access keys only send, from their domain', async () => {
    // Only a session manages keys (unlike Resend, where a full_access key does): spec, Authentication 3.
    const refused = await resend.apiKeys.create({ name: 'production' });
    assert.equal(refused.error?.statusCode, 403);
    assert.equal(refused.error?.name, 'restricted_api_key');
    const asSession = new Resend(sending.token, { baseUrl: sending.app.baseUrl });
    const created = await asSession.apiKeys.create({ name: 'production' });
    assert.equal(created.error, null, JSON.stringify(created.error));
    assert.match(created.data?.token ?? '', /^re_live_/);
    shape('ResendCreatedApiKey', created.data);
    const id = created.data.id;

    // The new key works with the SDK straight away.
    const withNewKey = new Resend(created.data.token, { baseUrl: sending.app.baseUrl });
    const listed = await withNewKey.apiKeys.list();
    assert.equal(listed.data?.object, 'list');
    shape('ResendApiKeyList', listed.data);
    const entry = listed.data?.data.find((k) => k.id === id);
    assert.equal(entry?.name, 'production');
    assert.match(entry?.created_at ?? '', /^\d{4}-/);

    const sendingKey = await asSession.apiKeys.create({
      name: 'shop sender',
      permission: 'sending_access',
      domain_id: sending.domain.id,
    });
    assert.equal(sendingKey.error, null, JSON.stringify(sendingKey.error));
    const sender = new Resend(sendingKey.data.token, { baseUrl: sending.app.baseUrl });
    const sent = await sender.emails.send({
      from: 'orders@shop.example.com',
      to: 'buyer@dest.test',
      subject: 'From a sending key',
      text: 'x',
    });
    assert.equal(sent.error, null, JSON.stringify(sent.error));
    const reading = await sender.domains.list();
    assert.equal(reading.error?.statusCode, 403);
    assert.equal(reading.error?.name, 'restricted_api_key');
    const managing = await sender.apiKeys.create({ name: 'escalate' });
    assert.equal(managing.error?.name, 'restricted_api_key');

    const removed = await asSession.apiKeys.remove(id);
    assert.deepEqual(removed.data, { object: 'api_key', id, deleted: true });
    shape('ResendDeleted', removed.data);
    const revoked = await withNewKey.apiKeys.list();
    assert.equal(revoked.error?.statusCode, 401);
    assert.equal(revoked.error?.name, 'invalid_api_key');
  });

  it('webhooks.create, get, list, update and remove', async () => {
    const created = await resend.webhooks.create({
      endpoint: receiver.url,
      events: ['email.delivered', 'email.bounced'],
    });
    assert.equal(created.error, null, JSON.stringify(created.error));
    assert.equal(created.data?.object, 'webhook');
    shape('ResendCreatedWebhook', created.data);
    const id = created.data.id;

    const got = await resend.webhooks.get(id);
    shape('ResendWebhook', got.data);
    assert.equal(got.data?.endpoint, receiver.url);
    assert.equal(got.data?.status, 'enabled');
    assert.deepEqual(got.data?.events, ['email.delivered', 'email.bounced']);

    const updated = await resend.webhooks.update(id, { events: ['email.sent'], status: 'disabled' });
    assert.deepEqual(updated.data, { object: 'webhook', id });
    shape('ResendObjectId', updated.data);
    const listed = await resend.webhooks.list();
    assert.equal(listed.data?.object, 'list');
    shape('ResendWebhookList', listed.data);
    assert.deepEqual(
      listed.data?.data.map((w) => [w.id, w.status, w.events]),
      [[id, 'disabled', ['email.sent']]],
    );

    const opened = await resend.webhooks.create({ endpoint: receiver.url, events: ['email.opened'] });
    assert.equal(opened.error?.statusCode, 501);
    assert.match(opened.error?.message ?? '', /email\.opened/);
    const badUrl = await resend.webhooks.create({ endpoint: 'ftp://x.test/', events: ['email.sent'] });
    assert.equal(badUrl.error?.statusCode, 422);
    assert.match(badUrl.error?.message ?? '', /^endpoint/);

    const removed = await resend.webhooks.remove(id);
    assert.deepEqual(removed.data, { object: 'webhook', id, deleted: true });
    assert.equal((await resend.webhooks.get(id)).error?.name, 'not_found');
  });

  it('webhooks.verify accepts a real delivery in Resend’s payload; rotateSigningSecret takes effect at once', async () => {
    const created = await resend.webhooks.create({ endpoint: receiver.url, events: ['email.delivered'] });
    assert.equal(created.error, null, JSON.stringify(created.error));
    const { id, signing_secret: secret } = created.data;
    assert.match(secret, /^whsec_[A-Za-z0-9+/]+=*$/);

    const deliveredFor = async (emailId: string): Promise<ReceivedRequest> => {
      let found: ReceivedRequest | undefined;
      await waitUntil(
        `email.delivered for ${emailId}`,
        () => {
          found = receiver.requests.find((q) => q.body.includes(emailId));
          return found !== undefined;
        },
        60_000,
      );
      return found!;
    };
    const verify = (q: ReceivedRequest, key: string, prefix: 'webhook' | 'svix') =>
      resend.webhooks.verify({
        payload: q.body,
        headers: {
          id: q.headers[`${prefix}-id`] as string,
          timestamp: q.headers[`${prefix}-timestamp`] as string,
          signature: q.headers[`${prefix}-signature`] as string,
        },
        webhookSecret: key,
      });

    const sent = await resend.emails.send({
      from: 'Shop <orders@shop.example.com>',
      to: 'hooked@dest.test',
      subject: 'Webhook me',
      text: 'x',
      tags: [{ name: 'plan', value: 'pro' }],
    });
    assert.equal(sent.error, null, JSON.stringify(sent.error));
    const delivery = await deliveredFor(sent.data.id);
    const event = verify(delivery, secret, 'webhook') as {
      type: string;
      created_at: string;
      data: { email_id: string; to: string[]; subject: string; tags?: Record<string, string> };
    };
    assert.equal(event.type, 'email.delivered');
    assert.equal(event.data.email_id, sent.data.id);
    assert.deepEqual(event.data.to, ['hooked@dest.test']);
    assert.equal(event.data.subject, 'Webhook me');
    assert.deepEqual(event.data.tags, { plan: 'pro' });
    assert.doesNotThrow(() => verify(delivery, secret, 'svix'));
    assert.throws(() =>
      verify({ ...delivery, body: delivery.body.replace('Webhook me', 'Forged') }, secret, 'webhook'),
    );

    const rotated = await resend.webhooks.rotateSigningSecret(id);
    assert.equal(rotated.error, null, JSON.stringify(rotated.error));
    shape('ResendCreatedWebhook', rotated.data);
    assert.notEqual(rotated.data.signing_secret, secret);
    const again = await resend.emails.send({
      from: 'orders@shop.example.com',
      to: 'hooked@dest.test',
      subject: 'After rotation',
      text: 'x',
    });
    const later = await deliveredFor(again.data!.id);
    assert.doesNotThrow(() => verify(later, rotated.data.signing_secret, 'webhook'));
    assert.throws(() => verify(later, secret, 'webhook'));
    await resend.webhooks.remove(id);
  });

  it('a test-mode key (re_test_) through the SDK: sends from an unverified domain into the capture', async () => {
    const key = await sending.app.api.post<{ token: string }>('/v1/api-keys', {
      token: sending.token,
      body: { name: 'ci', mode: 'test' },
    });
    assert.equal(key.status, 201, key.text);
    const trial = new Resend(key.body.token, { baseUrl: sending.app.baseUrl });
    const domain = await trial.domains.create({ name: 'trial.example.com' });
    assert.equal(domain.data?.status, 'pending');
    const sent = await trial.emails.send({
      from: 'hello@trial.example.com',
      to: 'someone@dest.test',
      subject: 'Trial',
      text: 'x',
    });
    assert.equal(sent.error, null, JSON.stringify(sent.error));
    assert.equal(sent.headers?.['x-mailroom-test-mode'], 'unverified-domain');
    await waitUntil(
      'the captured message delivered',
      async () => (await trial.emails.get(sent.data.id)).data?.last_event === 'delivered',
      30_000,
    );
  });

  it('suppressions.add, get by id and by address, list and remove', async () => {
    const added = await resend.suppressions.add({ email: 'Gone@Dest.test' });
    assert.equal(added.error, null, JSON.stringify(added.error));
    shape('ResendObjectId', added.data);
    const id = added.data.id;

    const byEmail = await resend.suppressions.get('gone@dest.test');
    shape('ResendSuppression', byEmail.data);
    assert.equal(byEmail.data?.id, id);
    assert.equal(byEmail.data?.email, 'gone@dest.test');
    assert.equal(byEmail.data?.origin, 'manual');
    const byId = await resend.suppressions.get(id);
    assert.equal(byId.data?.email, 'gone@dest.test');

    const listed = await resend.suppressions.list({ origin: 'manual' });
    shape('ResendSuppressionList', listed.data);
    assert.deepEqual(
      listed.data?.data.map((s) => s.id),
      [id],
    );

    // A suppressed address is refused at send, by the /v1 rule.
    const refused = await resend.emails.send({
      from: 'orders@shop.example.com',
      to: 'gone@dest.test',
      subject: 'x',
      text: 'x',
    });
    assert.equal(refused.error?.statusCode, 403);
    assert.equal(refused.error?.name, 'validation_error');
    assert.match(refused.error?.message ?? '', /suppressed/i);

    const duplicate = await resend.suppressions.add({ email: 'gone@dest.test' });
    assert.equal(duplicate.error?.statusCode, 409);

    const removed = await resend.suppressions.remove('gone@dest.test');
    assert.deepEqual(removed.data, { object: 'suppression', id, deleted: true });
    const gone = await resend.suppressions.get(id);
    assert.equal(gone.error?.statusCode, 404);
    assert.equal(gone.error?.name, 'not_found');
  });
});

// POST /v1/webhooks/{id}/test and /enable (issue 19, the dashboard's webhook screen): a test
// event goes through the real outbox, delivery job and worker to a receiver, and shows in
// the attempt log; an auto-disabled endpoint is re-enabled with its failure count reset.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../src/db/connect';
import { openApplianceDb } from '../helpers/open-database';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import { waitUntil } from '../helpers/wait-until';
import type { Receiver } from '../helpers/webhook-receiver';
import { startReceiver, verifySignature } from '../helpers/webhook-receiver';

interface WebhookBody {
  id: string;
  secret: string;
  enabled: boolean;
  disabledReason: string | null;
  consecutiveFailures: number;
  attempts: { deliveryId: string; event: string; succeeded: boolean; httpStatus: number | null }[];
  error: { code: string };
}

describe('webhook test event and re-enable', () => {
  let app: Appliance;
  let db: Db;
  let receiver: Receiver;
  let token: string;
  let apiKey: string;
  let hook: WebhookBody;

  before(async () => {
    receiver = await startReceiver();
    app = await startAppliance({ processes: ['api', 'worker'], env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    db = openApplianceDb(app);
    ({ token, apiKey } = await app.api.registerWithKey());
    const created = await app.api.post<WebhookBody>('/v1/webhooks', {
      token: apiKey,
      body: { url: receiver.url, events: ['email.delivered'] },
    });
    assert.equal(created.status, 201, created.text);
    hook = created.body;
  });
  after(async () => {
    await db.destroy();
    await app.stop();
    await receiver.close();
  });

  it('delivers a signed webhook.test event and logs the attempt', async () => {
    const res = await app.api.post<{ deliveryId: string; event: string; webhookId: string }>(
      `/v1/webhooks/${hook.id}/test`,
      { token: apiKey },
    );
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.event, 'webhook.test');
    assert.equal(res.body.webhookId, hook.id);
    await waitUntil('the test delivery', () => receiver.requests.length > 0, 20_000);
    const req = receiver.requests[0]!;
    assert.equal(req.headers['x-mail-event'], 'webhook.test');
    assert.equal(req.headers['x-mail-delivery-id'], res.body.deliveryId);
    assert.ok(verifySignature(hook.secret, req.headers['x-mail-signature'] as string, req.body));
    assert.equal((JSON.parse(req.body) as { event: string }).event, 'webhook.test');
    await waitUntil('the attempt in the log', async () => {
      const detail = await app.api.get<WebhookBody>(`/v1/webhooks/${hook.id}`, { token });
      return detail.body.attempts.some(
        (a) => a.deliveryId === res.body.deliveryId && a.event === 'webhook.test' && a.succeeded,
      );
    });
  });

  it('refuses a test to a disabled endpoint; /enable re-enables it and resets the failures', async () => {
    // What 20 consecutive failures leave behind (webhooks.repository recordFailure).
    await db
      .updateTable('webhooks')
      .set({ enabled: 0, disabled_reason: 'consecutive_failures', consecutive_failures: 20 })
      .where('id', '=', hook.id)
      .execute();
    const refused = await app.api.post<WebhookBody>(`/v1/webhooks/${hook.id}/test`, { token });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error.code, 'WEBHOOK_DISABLED');

    const enabled = await app.api.post<WebhookBody>(`/v1/webhooks/${hook.id}/enable`, { token });
    assert.equal(enabled.status, 200, enabled.text);
    assert.equal(enabled.body.enabled, true);
    assert.equal(enabled.body.disabledReason, null);
    assert.equal(enabled.body.consecutiveFailures, 0);
    const audit = await db
      .selectFrom('audit_log')
      .select('action')
      .where('resource_id', '=', hook.id)
      .orderBy('id')
      .execute();
    assert.deepEqual(
      audit.map((a) => a.action),
      ['webhook.created', 'webhook.test_sent', 'webhook.updated'],
    );

    const again = await app.api.post(`/v1/webhooks/${hook.id}/test`, { token });
    assert.equal(again.status, 202);
  });

  it('is scoped to the account', async () => {
    const other = await app.api.register();
    for (const action of ['test', 'enable']) {
      const res = await app.api.post<WebhookBody>(`/v1/webhooks/${hook.id}/${action}`, {
        token: other.token,
      });
      assert.equal(res.status, 404, action);
      assert.equal(res.body.error.code, 'WEBHOOK_NOT_FOUND');
    }
  });
});

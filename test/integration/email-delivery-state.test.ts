// GET /v1/emails/{id} `delivery` (issue 19: "why is this still queued?") on a whole appliance:
// a recipient's server defers (452 4.2.2 mailbox full) through real Haraka to the SMTP sink,
// and the message answers the attempt, the next retry from MTA_RETRY_INTERVALS and the reason
// in plain words; a scheduled message says when it goes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SendingAppliance } from '../helpers/sending-appliance';
import { startSendingAppliance } from '../helpers/sending-appliance';
import { waitUntil } from '../helpers/wait-until';

const DOMAIN = 'state.example.com';

interface Delivery {
  state: string;
  attempts: number;
  nextAttemptAt: string | null;
  lastDeferral: { at: string; reply: string; explanation: string } | null;
  summary: string;
}

describe('GET /v1/emails/{id}: delivery state', () => {
  let s: SendingAppliance;

  before(async () => {
    // Long intervals: the first deferral is the one looked at, no retry runs during the test.
    s = await startSendingAppliance(DOMAIN, { MTA_RETRY_INTERVALS: '600,1200' });
  });
  after(async () => {
    await s.stop();
  });

  const send = async (body: Record<string, unknown>) => {
    const res = await s.app.api.post<{ id: string }>('/v1/emails', {
      token: s.apiKey,
      body: { from: `orders@${DOMAIN}`, subject: 'Hi', text: 'Hi', ...body },
    });
    assert.equal(res.status, 202, res.text);
    return res.body.id;
  };
  const delivery = async (id: string) => {
    const res = await s.app.api.get<{ delivery: Delivery }>(`/v1/emails/${id}`, { token: s.apiKey });
    assert.equal(res.status, 200, res.text);
    return res.body.delivery;
  };

  it('a deferral answers the attempt, the next retry and the reason in plain words', async () => {
    s.sink.setRecipientBehaviour('full@dest.test', { code: 452, message: '4.2.2 Mailbox full' });
    const id = await send({ to: ['full@dest.test'] });
    let seen: Delivery | undefined;
    await waitUntil(
      'the deferral',
      async () => {
        seen = await delivery(id);
        return seen.state === 'deferred';
      },
      30_000,
    );
    const d = seen!;
    assert.equal(d.attempts, 1);
    assert.ok(d.lastDeferral);
    assert.match(d.lastDeferral.reply, /452.*4\.2\.2.*Mailbox full/);
    assert.match(d.lastDeferral.explanation, /mailbox is full/);
    assert.equal(d.nextAttemptAt, new Date(Date.parse(d.lastDeferral.at) + 600_000).toISOString());
    assert.match(d.summary, /until /);
  });

  it('a delivered message is done; a scheduled one says when it goes', async () => {
    const ok = await send({ to: ['ok@dest.test'] });
    await waitUntil('delivered', async () => (await delivery(ok)).state === 'done', 30_000);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const later = await send({ to: ['ok@dest.test'], scheduledAt: at });
    const d = await delivery(later);
    assert.equal(d.state, 'scheduled');
    assert.equal(d.nextAttemptAt, at);
    assert.equal(d.lastDeferral, null);
  });
});

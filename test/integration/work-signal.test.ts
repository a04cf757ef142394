// Issue 18 item 11: a send does not wait for the worker's poll. The api tells the worker,
// through the supervisor, that it committed one (src/shared/work-signal.ts); with the poll
// set to 30 s, a message still reaches the sink within 2 s.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SendingAppliance } from '../helpers/sending-appliance';
import { startSendingAppliance } from '../helpers/sending-appliance';

const DOMAIN = 'shop.example.com';
const POLL_MS = 30_000;
/** Far below the poll, far above a send on a loaded 2-core machine (~0.05–0.3 s). */
const BOUND_MS = 2_000;

describe('work signal: the api wakes the worker after a send commits', () => {
  let s: SendingAppliance;

  before(async () => {
    s = await startSendingAppliance(DOMAIN, { WORKER_POLL_MS: String(POLL_MS) });
  });
  after(async () => {
    await s.stop();
  });

  it('delivers each of three sends in a row well before the 30 s poll', async () => {
    for (let i = 1; i <= 3; i++) {
      const res = await s.app.api.post<{ id: string }>('/v1/emails', {
        token: s.apiKey,
        body: {
          from: `Shop <orders@${DOMAIN}>`,
          to: `buyer${i}@dest.test`,
          subject: `Order ${i}`,
          text: 'Thanks',
        },
      });
      assert.equal(res.status, 202, res.text);
      const started = performance.now();
      await s.sink.waitForMessages(i, BOUND_MS);
      assert.ok(performance.now() - started < BOUND_MS);
    }
  });
});

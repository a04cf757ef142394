// The retry schedule of the worker's own sender (OUTBOUND_SENDER=worker): a deferred recipient's
// next attempt is an `email-send` job due after MTA_RETRY_INTERVALS[N-1] seconds, with a dedupe
// key per attempt; past the last interval there is no job (the deferral ends `failed`). The
// payload of such a job is read back strictly. End to end: test/integration/emails-delivery.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deferredRetryJob } from '../../../src/modules/delivery/direct-delivery';
import { parseEmailSendPayload } from '../../../src/modules/delivery/send-job';

const ID = 'email_01jq0000000000000000000000';

describe("the worker's sender: retries of deferred recipients", () => {
  it('schedules retry N after the Nth interval, once per attempt, and none past the last', () => {
    const now = new Date('2026-12-03T10:00:00Z');
    const first = deferredRetryJob(ID, 1, [60, 300], now);
    assert.equal(first?.queue, 'email-send');
    assert.deepEqual(first?.payload, { emailId: ID, deferred: 1 });
    assert.equal(first?.runAt.toISOString(), '2026-12-03T10:01:00.000Z');
    const second = deferredRetryJob(ID, 2, [60, 300], now);
    assert.equal(second?.runAt.toISOString(), '2026-12-03T10:05:00.000Z');
    assert.notEqual(first?.dedupeKey, second?.dedupeKey);
    assert.equal(deferredRetryJob(ID, 3, [60, 300], now), undefined);
  });

  it('reads back a retry payload, and refuses a count that is not a positive integer', () => {
    assert.deepEqual(parseEmailSendPayload({ emailId: ID, deferred: 2 }), { emailId: ID, deferred: 2 });
    for (const deferred of [0, -1, 1.5, '2', null])
      assert.equal(parseEmailSendPayload({ emailId: ID, deferred }), undefined, String(deferred));
    assert.deepEqual(parseEmailSendPayload({ emailId: ID }), { emailId: ID });
  });
});

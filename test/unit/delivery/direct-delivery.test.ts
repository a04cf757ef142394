// The retry schedule of the worker's own sender (OUTBOUND_SENDER=worker): a deferred recipient's
// next attempt is an `email-send` job due after MTA_RETRY_INTERVALS[N-1] seconds, with a dedupe
// key per attempt and producing job; past the last interval there is no job (the deferral ends
// `failed`). Recipients held by pacing are retried at the same delivery count when their
// destination opens. The payload of such a job is read back strictly. End to end: test/integration/emails-delivery.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allHeld, deferredRetryJob, heldRetryJob } from '../../../src/modules/delivery/direct-delivery';
import { parseEmailSendPayload } from '../../../src/modules/delivery/send-job';

const ID = 'email_01jq0000000000000000000000';

describe("the worker's sender: retries of deferred recipients", () => {
  const producer = { jobId: 'job_01jq0000000000000000000000' };
  it('schedules retry N after the Nth interval, once per attempt, and none past the last', () => {
    const now = new Date('2026-12-03T10:00:00Z');
    const first = deferredRetryJob(ID, 1, [60, 300], ['a@x.test'], producer, now);
    assert.equal(first?.queue, 'email-send');
    assert.deepEqual(first?.payload, { emailId: ID, deferred: 1, recipients: ['a@x.test'] });
    assert.equal(first?.runAt.toISOString(), '2026-12-03T10:01:00.000Z');
    const second = deferredRetryJob(ID, 2, [60, 300], ['a@x.test'], producer, now);
    assert.equal(second?.runAt.toISOString(), '2026-12-03T10:05:00.000Z');
    assert.notEqual(first?.dedupeKey, second?.dedupeKey);
    assert.equal(deferredRetryJob(ID, 3, [60, 300], ['a@x.test'], producer, now), undefined);
    // Another job of the same message deferring at the same count gets a key of its own.
    const other = deferredRetryJob(ID, 1, [60, 300], ['b@x.test'], { jobId: 'job_other' }, now);
    assert.notEqual(other?.dedupeKey, first?.dedupeKey);
  });

  it("waits for the end of the destination's back-off when that is later than the interval", () => {
    const now = new Date('2026-12-03T10:00:00Z');
    const notBefore = Date.parse('2026-12-03T10:20:00Z');
    const retry = deferredRetryJob(ID, 1, [60], ['a@x.test'], producer, now, notBefore);
    assert.equal(retry?.runAt.toISOString(), '2026-12-03T10:20:00.000Z');
    const sooner = deferredRetryJob(ID, 1, [60], ['a@x.test'], producer, now, now.getTime() + 1_000);
    assert.equal(sooner?.runAt.toISOString(), '2026-12-03T10:01:00.000Z');
  });

  it('retries held recipients at the same delivery count when their destination opens', () => {
    const retryAt = Date.parse('2026-12-03T10:31:07Z');
    const held = heldRetryJob(ID, 0, ['a@x.test'], { destination: 'x.test', retryAt }, producer);
    assert.deepEqual(held.payload, { emailId: ID, deferred: 0, recipients: ['a@x.test'] });
    assert.equal(held.runAt.getTime(), retryAt);
    assert.match(held.dedupeKey ?? '', /:held:x\.test:/);
  });

  it('releases a job only when every recipient was held, at the first destination to open', () => {
    const said = { smtpCode: null, enhancedStatus: '4.4.5', host: null, tls: null };
    const hold = (recipient: string, retryAt: number) => ({
      recipient,
      outcome: 'deferred' as const,
      response: 'waiting: …',
      ...said,
      held: { destination: recipient.split('@')[1] as string, retryAt },
    });
    assert.equal(allHeld([]), undefined);
    assert.equal(allHeld([hold('a@x.test', 2_000), hold('b@y.test', 1_000)])?.getTime(), 1_000);
    const delivered = { recipient: 'c@z.test', outcome: 'delivered' as const, response: '250 ok', ...said };
    assert.equal(allHeld([hold('a@x.test', 2_000), delivered]), undefined);
  });

  it('reads back a retry payload strictly', () => {
    assert.deepEqual(parseEmailSendPayload({ emailId: ID, deferred: 2 }), { emailId: ID, deferred: 2 });
    assert.deepEqual(parseEmailSendPayload({ emailId: ID, deferred: 0, recipients: ['a@x.test'] }), {
      emailId: ID,
      deferred: 0,
      recipients: ['a@x.test'],
    });
    for (const deferred of [-1, 1.5, '2', null])
      assert.equal(parseEmailSendPayload({ emailId: ID, deferred }), undefined, String(deferred));
    for (const recipients of [[], 'a@x.test', [1], [''], Array.from({ length: 1001 }, () => 'a@x.test')])
      assert.equal(
        parseEmailSendPayload({ emailId: ID, deferred: 1, recipients }),
        undefined,
        JSON.stringify(recipients).slice(0, 40),
      );
    assert.deepEqual(parseEmailSendPayload({ emailId: ID }), { emailId: ID });
  });
});

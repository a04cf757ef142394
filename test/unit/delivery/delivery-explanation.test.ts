import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DeliveryFacts } from '../../../src/modules/delivery/delivery-explanation';
import { deliveryView } from '../../../src/modules/delivery/delivery-explanation';

const INTERVALS = [60, 300, 900];
const NOW = Date.parse('2026-11-26T12:00:00.000Z');

/** A recipient in a status; `smtpResponse` only where a test gives one. */
const to = (status: string, smtpResponse: string | null = null, email = 'a@example.org') => ({
  email,
  status,
  smtpResponse,
});

function facts(over: Partial<DeliveryFacts>): DeliveryFacts {
  return {
    status: 'queued',
    attempts: 0,
    scheduledAt: null,
    mode: 'live',
    recipients: [to('queued')],
    events: [],
    ...over,
  };
}

describe('deliveryView', () => {
  it('a deferred recipient: attempt, next retry from MTA_RETRY_INTERVALS, reply and plain words', () => {
    const view = deliveryView(
      facts({
        status: 'deferred',
        attempts: 1,
        recipients: [to('deferred'), to('delivered')],
        events: [
          {
            type: 'deferred',
            message: 'attempt 1: 452 4.2.2 Mailbox full',
            createdAt: '2026-11-26T11:00:00.000Z',
          },
          {
            type: 'deferred',
            message: 'attempt 2: 452 4.2.2 Mailbox full',
            createdAt: '2026-11-26T11:01:00.000Z',
          },
        ],
      }),
      undefined,
      INTERVALS,
      NOW,
    );
    assert.equal(view.state, 'deferred');
    assert.equal(view.attempts, 2);
    assert.equal(view.nextAttemptAt, '2026-11-26T11:06:00.000Z');
    assert.equal(view.lastDeferral?.reply, '452 4.2.2 Mailbox full');
    assert.equal(view.lastDeferral?.at, '2026-11-26T11:01:00.000Z');
    assert.match(
      view.lastDeferral?.explanation ?? '',
      /mailbox is full.*next at 2026-11-26T11:06:00.000Z, until 2026-11-26T11:21:00.000Z/,
    );
  });

  it('a message held by per-destination pacing: when it is tried again, and that no retry is spent', () => {
    const view = (message: string) =>
      deliveryView(
        facts({
          status: 'deferred',
          attempts: 1,
          recipients: [to('deferred')],
          events: [{ type: 'deferred', message, createdAt: '2026-11-26T23:50:00.000Z' }],
        }),
        undefined,
        INTERVALS,
        NOW,
      );
    const throttled = view('attempt 1: waiting: destination google.com is throttling us until 00:20 UTC');
    assert.equal(throttled.state, 'deferred');
    assert.equal(throttled.nextAttemptAt, '2026-11-27T00:20:00.000Z', 'past midnight: the next day');
    assert.match(throttled.summary, /^google\.com, the recipient’s mail provider, asked us to slow down/);
    assert.match(throttled.summary, /Waiting spends none of the retries\.$/);
    const capped = view('attempt 1: waiting: destination google.com at its limit');
    assert.equal(capped.nextAttemptAt, null);
    assert.match(capped.summary, /as fast as its per-destination limits allow/);
  });

  it('after the last interval there is no next attempt', () => {
    const view = deliveryView(
      facts({
        status: 'deferred',
        recipients: [to('deferred')],
        events: [
          { type: 'deferred', message: 'attempt 4: 451 4.3.0 busy', createdAt: '2026-11-26T11:00:00.000Z' },
        ],
      }),
      undefined,
      INTERVALS,
      NOW,
    );
    assert.equal(view.nextAttemptAt, null);
    assert.match(view.summary, /last retry/);
  });

  it('queued, scheduled, retrying (parked), sending, sent and done', () => {
    const job = { queue: 'email-send', runAt: '2026-11-26T12:00:01.000Z', attempts: 0, lastError: null };
    assert.deepEqual(
      [
        deliveryView(facts({}), job, INTERVALS, NOW).state,
        deliveryView(facts({}), job, INTERVALS, NOW).nextAttemptAt,
      ],
      ['queued', job.runAt],
    );
    const scheduled = deliveryView(facts({ scheduledAt: '2026-11-27T00:00:00.000Z' }), job, INTERVALS, NOW);
    assert.deepEqual([scheduled.state, scheduled.nextAttemptAt], ['scheduled', '2026-11-27T00:00:00.000Z']);
    const parked = deliveryView(
      facts({ attempts: 8 }),
      { queue: 'email-send:failed', runAt: '2026-11-26T12:10:00.000Z', attempts: 0, lastError: null },
      INTERVALS,
      NOW,
    );
    assert.deepEqual([parked.state, parked.nextAttemptAt], ['retrying', '2026-11-26T12:10:00.000Z']);
    assert.match(parked.summary, /8 attempt.*parked/);
    assert.equal(deliveryView(facts({ status: 'processing' }), undefined, INTERVALS, NOW).state, 'sending');
    assert.equal(
      deliveryView(facts({ status: 'sent', recipients: [to('sent')] }), undefined, INTERVALS, NOW).state,
      'sent',
    );
    const done = deliveryView(
      facts({ status: 'delivered', recipients: [to('delivered')] }),
      undefined,
      INTERVALS,
      NOW,
    );
    assert.deepEqual([done.state, done.nextAttemptAt, done.lastDeferral], ['done', null, null]);
  });

  it('reads each bounced recipient in plain words: hard is suppressed (live mail only), soft is not', () => {
    const bounced = (mode: 'live' | 'test') =>
      deliveryView(
        facts({
          status: 'bounced',
          mode,
          recipients: [
            to(
              'bounced',
              '550 5.1.1 <gone@example.org>: Recipient address rejected: User unknown',
              'gone@example.org',
            ),
            to('bounced', '554 5.7.1 Message rejected as spam', 'picky@example.org'),
            to('delivered', '250 2.0.0 OK', 'fine@example.org'),
          ],
        }),
        undefined,
        INTERVALS,
        NOW,
      ).bounces;
    const [gone, picky, ...rest] = bounced('live');
    assert.deepEqual(rest, [], 'only bounced recipients are read');
    assert.equal(gone?.recipient, 'gone@example.org');
    assert.equal(gone?.kind, 'hard');
    assert.equal(gone?.reason, 'userunknown');
    assert.match(gone?.explanation ?? '', /does not exist.*added to your suppressions/);
    assert.equal(picky?.kind, 'soft');
    assert.equal(picky?.reason, 'spamdetected');
    assert.match(picky?.explanation ?? '', /spam.*not suppressed/);
    assert.match(bounced('test')[0]?.explanation ?? '', /test mail never adds a suppression/);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventMessageFor, formatSmtpResponse } from '../../../src/modules/delivery/delivery-status';
import { deliveryOutcomes } from '../../../src/mta/delivery-outcome';
import { STATUS_PATTERNS } from '../../../src/mail/reply-classifier/status-patterns';
import { THROTTLING_REASONS } from '../../../src/mail/reply-classifier/throttling';
import { BACKOFF_FILE, backoffFileText, parseBackoffFile } from '../../../src/mta/destination-backoff-file';
import {
  atLimitText,
  DestinationBackoff,
  destinationOf,
  isThrottling,
  waitingText,
} from '../../../src/mta/destination-pacing';

describe('destinationOf', () => {
  it('groups recipient domains by the registrable domain of their MX host', () => {
    // gmail.com and googlemail.com both have MX gmail-smtp-in.l.google.com (and alt*.).
    assert.equal(destinationOf('gmail-smtp-in.l.google.com'), 'google.com');
    assert.equal(destinationOf('ALT1.gmail-smtp-in.l.google.com.'), 'google.com');
    assert.equal(destinationOf('contoso-com.mail.protection.outlook.com'), 'outlook.com');
    assert.equal(destinationOf('mx1.example.co.uk'), 'example.co.uk');
    assert.equal(destinationOf('127.0.0.2'), '127.0.0.2');
  });
});

describe('isThrottling', () => {
  const reply = (smtpCode: number | null, enhancedStatus: string | null, text: string) => ({
    smtpCode,
    enhancedStatus,
    text,
  });
  it('reads 421, 4.7.x and 450 with throttling text, and refused connections, as throttling', () => {
    assert.ok(isThrottling(reply(421, '4.7.0', '[TSS04] Messages temporarily deferred')));
    assert.ok(isThrottling(reply(421, null, 'Service not available')));
    assert.ok(
      isThrottling(reply(421, '4.7.28', 'Our system has detected an unusual rate of unsolicited mail')),
    );
    assert.ok(isThrottling(reply(451, '4.7.500', 'Server busy. Please try again later')));
    assert.ok(isThrottling(reply(450, null, 'Too many connections from your IP')));
    assert.ok(isThrottling(reply(452, '4.7.1', 'Rate limit exceeded')));
    assert.ok(isThrottling(reply(null, null, 'Tried all MXs')));
  });
  it('reads every throttling wording of the bounce classifier as throttling (one table)', () => {
    const rows = STATUS_PATTERNS.filter((r) => (THROTTLING_REASONS as readonly string[]).includes(r.reason));
    assert.ok(rows.length >= 8, `${rows.length} rows`);
    for (const r of rows) {
      // The row's own example, as a 4.7.x deferral (the code the example carries aside).
      assert.ok(isThrottling(reply(451, '4.7.0', r.example)), r.example);
    }
    assert.ok(
      isThrottling(reply(451, '4.7.652', 'The mail server has exceeded the maximum number of connections.')),
    );
  });
  it('leaves a busy mailbox, greylisting and DNS errors to the message’s own retries', () => {
    assert.ok(!isThrottling(reply(451, '4.3.0', 'Mailbox busy')));
    assert.ok(!isThrottling(reply(451, '4.7.1', 'Greylisted, try again')));
    assert.ok(!isThrottling(reply(452, '4.2.2', 'Mailbox full, too many messages')));
    assert.ok(!isThrottling(reply(null, null, 'DNS lookup failure: ETIMEOUT')));
  });
});

describe('DestinationBackoff', () => {
  const minute = 60_000;
  it('backs a destination off exponentially, capped, one step per episode', () => {
    const b = new DestinationBackoff({ baseMs: minute, capMs: 30 * minute, random: () => 0.5 });
    let now = 1_000_000;
    assert.equal(b.throttled('google.com', now).until, now + minute);
    // More replies from connections opened before the back-off: the same episode.
    assert.equal(b.throttled('google.com', now + 10).until, now + minute);
    assert.equal(b.backedOff('google.com', now + minute - 1)?.destination, 'google.com');
    assert.equal(b.backedOff('google.com', now + minute), undefined);
    assert.equal(b.backedOff('yahoo.com', now), undefined, 'other destinations keep flowing');
    const waits: number[] = [];
    for (let i = 0; i < 7; i++) {
      now += 31 * minute;
      waits.push((b.throttled('google.com', now).until - now) / minute);
    }
    assert.deepEqual(waits, [2, 4, 8, 16, 30, 30, 30]);
  });
  it('jitters by ±25 % and resumes gradually: one level per delivery', () => {
    const low = new DestinationBackoff({ baseMs: minute, capMs: 30 * minute, random: () => 0 });
    const high = new DestinationBackoff({ baseMs: minute, capMs: 30 * minute, random: () => 0.999999 });
    assert.equal(low.throttled('d', 0).until, 0.75 * minute);
    assert.ok(Math.abs(high.throttled('d', 0).until - 1.25 * minute) < 10);

    const b = new DestinationBackoff({ baseMs: minute, capMs: 30 * minute, random: () => 0.5 });
    b.throttled('d', 0);
    b.throttled('d', 2 * minute);
    b.delivered('d');
    assert.equal(b.standings()[0]?.level, 1, 'still remembered after one delivery');
    assert.equal(b.throttled('d', 10 * minute).until, 12 * minute, 'level 2 again, not 3');
    b.delivered('d');
    b.delivered('d');
    assert.deepEqual(b.standings(), []);
  });
  it('survives a restart through its file, leaving out the back-offs that ended', () => {
    const saved: string[] = [];
    const b = new DestinationBackoff({ baseMs: minute, capMs: 30 * minute, random: () => 0.5 }, (s) =>
      saved.push(backoffFileText(s)),
    );
    b.throttled('google.com', 0);
    b.throttled('google.com', 2 * minute);
    b.throttled('outlook.com', 2 * minute);
    b.throttled('outlook.com', 2 * minute + 1);
    assert.equal(saved.length, 3, 'written on each change, not on a reply within an episode');
    const restarted = new DestinationBackoff({ baseMs: minute, capMs: 30 * minute, random: () => 0.5 });
    // Google's second back-off (2 min) ends at 4 min; Outlook's first (1 min) at 3 min.
    const at = 3 * minute + 30_000;
    assert.equal(restarted.restore(parseBackoffFile(saved.at(-1) ?? ''), at), 1);
    assert.deepEqual(restarted.backedOff('google.com', at), {
      destination: 'google.com',
      level: 2,
      until: 4 * minute,
    });
    assert.equal(restarted.backedOff('outlook.com', at), undefined, 'ended while the mta was down');
    // The level came back too: the next episode is longer.
    assert.equal(restarted.throttled('google.com', 5 * minute).until, 9 * minute);
    b.delivered('outlook.com');
    assert.deepEqual(
      parseBackoffFile(saved.at(-1) ?? '').map((s) => s.destination),
      ['google.com'],
      'a destination that resumed leaves the file',
    );
  });
  it('skips what is not a back-off in its file', () => {
    assert.equal(BACKOFF_FILE, 'mta-backoff.json');
    assert.deepEqual(parseBackoffFile('{"half'), []);
    assert.deepEqual(parseBackoffFile('[]'), []);
    assert.deepEqual(
      parseBackoffFile(
        JSON.stringify({
          destinations: [
            { destination: 'a.com', level: 1, until: 5 },
            { destination: 'b.com', level: '1', until: 5 },
            { destination: '', level: 1, until: 5 },
            { destination: 'c.com', level: 1.5, until: 5 },
            null,
          ],
        }),
      ),
      [{ destination: 'a.com', level: 1, until: 5 }],
    );
  });
  it('tells the timeline when the destination is tried again', () => {
    const at = Date.parse('2026-11-26T17:15:00Z');
    assert.equal(
      waitingText({ destination: 'google.com', level: 1, until: at + 30 * minute }),
      'waiting: destination google.com is throttling us until 17:45 UTC',
    );
    assert.equal(atLimitText('google.com'), 'waiting: destination google.com at its limit');
  });
});

describe('the held deferral on the timeline', () => {
  it('reads "waiting: destination X is throttling us until HH:MM" through the outcome path', () => {
    const error = waitingText({
      destination: 'google.com',
      level: 1,
      until: Date.parse('2026-11-26T17:45:00Z'),
    });
    // What mailroom-outbound's deferred hook builds for a message get_mx held back.
    const [payload] = deliveryOutcomes({
      hook: 'deferred',
      emailId: 'email_1',
      recipients: [{ address: 'Someone@Gmail.com', dsnStatus: '4.4.5' }],
      error,
      numFailures: 2,
      at: '2026-11-26T17:20:00Z',
    });
    assert.ok(payload);
    assert.equal(payload.enhancedStatus, '4.4.5');
    assert.equal(
      eventMessageFor(payload, formatSmtpResponse(payload)),
      'attempt 2: waiting: destination google.com is throttling us until 17:45 UTC',
    );
  });
});

// The worker sender's hold decisions (src/sender/pacing.ts), on a clock the test moves: a
// throttling reply backs the destination off as a whole, the held delivery is tried again when
// the back-off ends (jittered, never before), deliveries let it resume gradually; the per-minute
// cap holds without counting the held start; the table survives a restart through DATA_DIR.
// End to end (real worker, fake DNS, sinks answering 421): test/integration/sender-pacing.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { DEFAULT_LIMITS, parseLimits } from '../../../src/mta/destination-limits';
import { readSnapshot } from '../../../src/mta/destination-metrics';
import { SENDER_BACKOFF_FILE, SenderPacing } from '../../../src/sender/pacing';

const MINUTE = 60_000;
const throttled = { smtpCode: 421, enhancedStatus: '4.7.0', text: 'Try again later' };
const greylisted = { smtpCode: 451, enhancedStatus: '4.7.1', text: 'Greylisted, try again in 5 minutes' };

function clock(start = Date.parse('2026-12-04T12:00:00Z')) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe("the worker sender's pacing", () => {
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('backs a throttling destination off as a whole and holds it until the back-off ends', () => {
    const c = clock();
    const logs: string[] = [];
    const p = new SenderPacing({
      limits: () => DEFAULT_LIMITS,
      backoff: { baseMs: MINUTE, capMs: 30 * MINUTE },
      now: c.now,
      random: () => 0.5,
      log: (event) => logs.push(event),
    });
    assert.equal(p.hold('slow.test'), undefined);
    // Deferred recipients of the throttled delivery are not retried before the back-off's end.
    const notBefore = p.delivered('slow.test', { delivered: false, deferrals: [throttled] });
    assert.ok(notBefore !== undefined && notBefore >= c.now() + MINUTE, String(notBefore));
    const held = p.hold('slow.test');
    assert.ok(held);
    assert.match(held.text, /^waiting: destination slow\.test is throttling us until 12:01 UTC$/);
    // ±25 % jitter (0.5 → none) then up to a tenth of the wait: 60 s to 66 s from now.
    assert.ok(held.retryAt >= c.now() + MINUTE && held.retryAt <= c.now() + 66_000, String(held.retryAt));
    assert.equal(p.hold('other.test'), undefined, 'other destinations flow');
    // Replies from connections opened before the back-off do not grow it.
    p.delivered('slow.test', { delivered: false, deferrals: [throttled] });
    assert.equal(p.standings()[0]?.level, 1);
    c.advance(MINUTE + 1);
    assert.equal(p.hold('slow.test'), undefined, 'open again once the back-off ended');
    // Throttled again soon after: level 2, twice as long.
    p.delivered('slow.test', { delivered: false, deferrals: [throttled] });
    assert.equal(p.standings()[0]?.level, 2);
    assert.equal(p.standings()[0]?.until, c.now() + 2 * MINUTE);
    assert.deepEqual(
      logs.filter((l) => l !== 'sender_destination_held'),
      ['sender_destination_backoff', 'sender_destination_backoff', 'sender_destination_backoff'],
    );
    p.stop();
  });

  it('does not back off for a mailbox-level 4xx, and decays the level by one per delivery', () => {
    const c = clock();
    const p = new SenderPacing({ limits: () => DEFAULT_LIMITS, now: c.now, random: () => 0.5 });
    assert.equal(p.delivered('grey.test', { delivered: false, deferrals: [greylisted] }), undefined);
    assert.equal(p.hold('grey.test'), undefined);
    p.delivered('slow.test', { delivered: false, deferrals: [throttled] });
    c.advance(MINUTE + 1);
    p.delivered('slow.test', { delivered: false, deferrals: [throttled] });
    c.advance(2 * MINUTE + 1);
    assert.equal(p.standings().length, 0);
    p.delivered('slow.test', { delivered: true, deferrals: [] });
    p.delivered('slow.test', { delivered: false, deferrals: [throttled] });
    assert.equal(p.standings()[0]?.level, 2, 'level 2 fell to 1, then the next episode is 2');
    p.stop();
  });

  it('reads "every MX unreachable" as throttling', () => {
    const p = new SenderPacing({ limits: () => DEFAULT_LIMITS });
    p.delivered('down.test', {
      delivered: false,
      deferrals: [
        { smtpCode: null, enhancedStatus: null, text: 'Tried all MXs: mx [1.2.3.4]: ECONNREFUSED' },
      ],
    });
    assert.ok(p.hold('down.test'));
    p.stop();
  });

  it('holds a destination at its per-minute cap until the window has room, not counting held starts', () => {
    const c = clock();
    const limits = parseLimits(JSON.stringify({ 'capped.test': { perMinute: 2 } }), 'test');
    const p = new SenderPacing({ limits: () => limits, now: c.now, random: () => 0 });
    assert.equal(p.hold('capped.test'), undefined);
    assert.equal(p.hold('capped.test'), undefined);
    const held = p.hold('capped.test');
    assert.equal(held?.text, 'waiting: destination capped.test at its limit');
    assert.ok(held && held.retryAt > c.now() && held.retryAt <= c.now() + MINUTE);
    assert.ok(p.hold('capped.test'), 'still held');
    assert.equal(p.hold('open.test'), undefined, 'other destinations have their own window');
    // A sliding window: the previous minute still weighs until a whole window has passed.
    c.advance(2 * MINUTE + 1);
    assert.equal(p.hold('capped.test'), undefined, 'the window has room again');
    p.stop();
  });

  it('keeps back-offs across a restart in DATA_DIR, private; one that ended meanwhile is dropped', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-sender-pacing-'));
    dirs.push(dir);
    const c = clock();
    const first = new SenderPacing({
      limits: () => DEFAULT_LIMITS,
      dataDir: dir,
      now: c.now,
      random: () => 0.5,
    });
    first.delivered('slow.test', { delivered: false, deferrals: [throttled] });
    c.advance(1);
    first.delivered('brief.test', { delivered: false, deferrals: [throttled] });
    await first.flushed();
    first.stop();
    const file = path.join(dir, SENDER_BACKOFF_FILE);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    // brief.test's back-off ends 1 ms after slow.test's: start the next run in between.
    const until = first.standings().find((s) => s.destination === 'slow.test')?.until ?? 0;
    const later = clock(until);
    const logs: Record<string, unknown>[] = [];
    const second = new SenderPacing({
      limits: () => DEFAULT_LIMITS,
      dataDir: dir,
      now: later.now,
      log: (event, fields) => logs.push({ event, ...fields }),
    });
    assert.equal(second.hold('slow.test'), undefined);
    assert.ok(second.hold('brief.test'), 'still backed off after the restart');
    assert.deepEqual(logs[0], { event: 'sender_destination_backoff_restored', destinations: ['brief.test'] });
    second.stop();
  });

  it('writes the mail_destination_* gauges for /metrics: in flight, backed off, deferrals of the last hour', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-sender-gauges-'));
    dirs.push(dir);
    const c = clock();
    const p = new SenderPacing({
      limits: () => DEFAULT_LIMITS,
      dataDir: dir,
      gauges: true,
      now: c.now,
      random: () => 0.5,
    });
    try {
      assert.equal(p.hold('slow.test'), undefined);
      assert.equal(p.hold('busy.test'), undefined);
      assert.equal(p.hold('busy.test'), undefined);
      p.delivered('slow.test', { delivered: false, deferrals: [throttled, throttled] });
      p.finished('busy.test');
      await p.flushed();
      // What the api's /metrics reads (test/integration/metrics.test.ts reads it there).
      const snapshot = await readSnapshot(dir);
      assert.ok(snapshot);
      const byName = Object.fromEntries(snapshot.destinations.map((d) => [d.destination, d]));
      assert.deepEqual(byName['slow.test'], {
        destination: 'slow.test',
        inFlight: 0,
        backedOff: 1,
        backoffRemainingSeconds: 60,
        deferredLastHour: 2,
      });
      assert.equal(byName['busy.test']?.inFlight, 1);
      assert.equal(byName['busy.test']?.backedOff, 0);
    } finally {
      p.stop();
    }
  });
});

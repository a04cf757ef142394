// The rolling hour and day windows at minute, hour and day boundaries, on a real
// SQLite file built by the migrations; the clock is the `now` each call is given.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import type { Database } from '../../../src/db/schema';
import type { QuotaLimits } from '../../../src/modules/quota/quota-limits';
import { accountUsage, consumeQuota, refundQuota } from '../../../src/modules/quota/quota';
import { hourOf, minuteOf, windowBounds } from '../../../src/modules/quota/quota-limits';
import { isAppError } from '../../../src/shared/app-error';
import { createTestDb } from '../../helpers/test-db';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const OPEN: QuotaLimits = { hour: 1e9, day: 1e9 };
const at = (iso: string): number => Date.parse(iso);

describe('windowBounds', () => {
  it('starts each window at the minute bucket holding its nominal start', () => {
    assert.deepEqual(windowBounds(at('2026-11-23T12:00:00.000Z')), {
      hourStart: '2026-11-23T11:00',
      dayStart: '2026-11-22T12:00',
      dayHeadEnd: '2026-11-22T13:00',
      dayHours: '2026-11-22T13',
    });
    assert.deepEqual(windowBounds(at('2026-11-23T12:59:59.999Z')), {
      hourStart: '2026-11-23T11:59',
      dayStart: '2026-11-22T12:59',
      dayHeadEnd: '2026-11-22T13:00',
      dayHours: '2026-11-22T13',
    });
  });
  it('crosses day, month and year boundaries', () => {
    assert.deepEqual(windowBounds(at('2027-01-01T00:30:00.000Z')), {
      hourStart: '2026-12-31T23:30',
      dayStart: '2026-12-31T00:30',
      dayHeadEnd: '2026-12-31T01:00',
      dayHours: '2026-12-31T01',
    });
    assert.equal(hourOf(at('2026-12-31T23:59:59.999Z')), '2026-12-31T23');
    assert.equal(minuteOf(at('2026-12-31T23:59:59.999Z')), '2026-12-31T23:59');
  });
});

describe('quota windows (real database, either backend)', () => {
  let dir: string;
  let db: Kysely<Database>;
  let n = 0;
  const userId = 'usr_windows';

  before(async () => {
    const testDb = await createTestDb();
    dir = testDb.dataDir;
    db = testDb.db;
  });
  after(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await db.deleteFrom('quota_ledger').execute();
    await db.deleteFrom('quota_buckets').execute();
    await db.deleteFrom('quota_hour_buckets').execute();
  });

  async function send(now: number, count = 1, limits = OPEN, apiKeyId: string | null = 'key_w') {
    const emailId = `email_w${n++}`;
    await db
      .transaction()
      .execute((trx) =>
        consumeQuota(trx, { userId, domainId: 'dom_w', apiKeyId, emailId, count, limits, now }),
      );
    return emailId;
  }
  const usage = async (now: number) => {
    const u = await accountUsage(db, userId, OPEN, now);
    return { hour: u.hour.used, day: u.day.used };
  };

  it('keeps a send in the hour window until the minute after its bucket leaves it', async () => {
    const t = at('2026-11-23T10:05:30.000Z');
    await send(t, 2);
    assert.deepEqual(await usage(t), { hour: 2, day: 2 });
    assert.deepEqual(await usage(t + HOUR + 29_999), { hour: 2, day: 2 }); // 11:05:59.999
    assert.deepEqual(await usage(t + HOUR + 30_000), { hour: 0, day: 2 }); // 11:06:00
  });

  it('keeps a send in the day window to the minute, whichever hour of the day it is in', async () => {
    const t = at('2026-11-23T10:05:30.000Z');
    await send(t);
    // Read through the hour buckets (the send's hour is a whole hour of the window) ...
    assert.deepEqual(await usage(t + 12 * HOUR), { hour: 0, day: 1 });
    // ... then through the minute buckets of the window's first, partial hour.
    assert.deepEqual(await usage(t + DAY - 30_000), { hour: 0, day: 1 }); // next day 10:05:00
    assert.deepEqual(await usage(t + DAY + 29_999), { hour: 0, day: 1 }); // 10:05:59.999
    assert.deepEqual(await usage(t + DAY + 30_000), { hour: 0, day: 0 }); // 10:06:00
  });

  it('agrees with summing every minute bucket, for sends spread over two days', async () => {
    let seed = 7;
    const rand = (): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const start = at('2026-11-22T00:00:00.000Z');
    const sends: { t: number; count: number }[] = [];
    for (let i = 0; i < 300; i++) {
      const t = start + Math.floor(rand() * 2 * DAY);
      const count = 1 + Math.floor(rand() * 4);
      sends.push({ t, count });
      await send(t, count);
    }
    // A cancelled message gives its count back to the minute (and so the hour) it was counted in.
    const refunded = await send(start + 30 * HOUR + 17 * MIN, 5);
    await db.transaction().execute((trx) => refundQuota(trx, refunded));
    const naive = (now: number, window: number): number =>
      sends.filter((s) => minuteOf(s.t) >= minuteOf(now - window)).reduce((sum, s) => sum + s.count, 0);
    for (const now of [
      start + 2 * DAY,
      start + DAY + 13 * HOUR + 59 * MIN + 59_999,
      start + DAY + 14 * HOUR,
      start + 36 * HOUR + 30_000,
      start + 2 * DAY + 23 * HOUR + 1,
    ]) {
      assert.deepEqual(await usage(now), { hour: naive(now, HOUR), day: naive(now, DAY) }, minuteOf(now));
    }
    // The hour buckets are exactly the minute buckets summed per hour.
    const hours = await db
      .selectFrom('quota_hour_buckets')
      .selectAll()
      .orderBy('scope')
      .orderBy('hour')
      .execute();
    const minutes = await db.selectFrom('quota_buckets').selectAll().execute();
    const summed = new Map<string, number>();
    for (const m of minutes) {
      const key = `${m.scope} ${m.scope_id} ${m.minute.slice(0, 13)}`;
      summed.set(key, (summed.get(key) ?? 0) + m.count);
    }
    assert.deepEqual(new Map(hours.map((h) => [`${h.scope} ${h.scope_id} ${h.hour}`, h.count])), summed);
  });

  it('refuses past the day allowance with Retry-After when its oldest send leaves the window', async () => {
    const t = at('2026-11-23T10:05:30.000Z');
    await send(t, 3);
    await send(t + 5 * HOUR, 2);
    const limits = { hour: 100, day: 5 };
    const now = t + 20 * HOUR;
    await assert.rejects(send(now, 1, limits), (err: unknown) => {
      assert.ok(isAppError(err));
      assert.equal(err.code, 'SENDING_LIMIT_EXCEEDED');
      // The 10:05 bucket leaves at 10:06 the next day: 4 h 0 min 30 s after `now`.
      const freesAt = '2026-11-24T10:06:00.000Z';
      assert.deepEqual(err.details, {
        scope: 'user',
        window: 'day',
        limit: 5,
        used: 5,
        requested: 1,
        freesAt,
      });
      assert.equal(err.headers?.['Retry-After'], String(4 * 3600 + 30));
      assert.equal(err.headers?.RateLimit, `"day";r=0;t=${4 * 3600 + 30}`);
      assert.equal(err.headers?.['RateLimit-Policy'], '"day";q=5;w=86400');
      assert.ok(err.message.includes(`more can be sent from ${freesAt}`), err.message);
      return true;
    });
    // A refused send consumed nothing.
    assert.deepEqual(await usage(now), { hour: 0, day: 5 });
    await send(t + DAY + 30_000, 1, limits); // 10:06 the next day: the 3 left the window
    assert.deepEqual(await usage(t + DAY + 30_000), { hour: 1, day: 3 });
  });

  it('enforces each scope on its own: a key without a key scope row is not counted', async () => {
    const t = at('2026-11-23T10:00:00.000Z');
    await send(t, 2, OPEN, null);
    await assert.rejects(send(t, 1, { hour: 2, day: 100 }, 'key_other'), (err: unknown) => {
      assert.ok(isAppError(err));
      assert.equal((err.details as { scope: string }).scope, 'user');
      assert.equal((err.details as { window: string }).window, 'hour');
      return true;
    });
  });
});

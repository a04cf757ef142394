// GET /v1/emails filters for the dashboard (issue 19): tag, created range, free text, with
// the existing status/domain/recipient ones, and keyset paging through a filtered list.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../src/db/connect';
import { openApplianceDb } from '../helpers/open-database';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import type { FixtureAccount } from '../helpers/email-fixtures';
import { insertEmail } from '../helpers/email-fixtures';
import { idTimeFloor } from '../../src/shared/id-time-floor';
import { sortableId } from '../../src/shared/ids';
import { countEmails } from '../../src/modules/emails/emails.repository';
import { populateMail } from '../helpers/populate-mail';

interface Page {
  data: { id: string; subject: string }[];
  hasMore: boolean;
  nextCursor: string | null;
  total?: { count: number; capped: boolean };
}

describe('GET /v1/emails: dashboard filters', () => {
  let app: Appliance;
  let db: Db;
  let token: string;
  let other: string;
  let account: FixtureAccount;
  const ids: Record<string, string> = {};

  before(async () => {
    app = await startAppliance({ processes: ['api'] });
    db = openApplianceDb(app);
    const user = await app.api.register();
    token = user.token;
    other = (await app.api.register()).token;
    const domain = await app.api.post<{ id: string }>('/v1/domains', {
      token,
      body: { domain: 'filters.example.com' },
    });
    account = { userId: user.userId, domainId: domain.body.id, domain: 'filters.example.com' };
    const add = async (name: string, e: Parameters<typeof insertEmail>[2]) => {
      ids[name] = await insertEmail(db, account, e);
    };
    // An id of its time, as the send pipeline makes it (ids sort by creation time).
    const january = Date.parse('2026-01-10T12:00:00.000Z');
    await add('old', {
      id: `${idTimeFloor('email', january)}${sortableId().slice(10)}`,
      createdAt: new Date(january).toISOString(),
      subject: 'January invoice',
      to: ['a@example.org'],
    });
    await add('plan', { tags: { plan: 'pro', team: 'x' }, subject: 'Welcome', to: ['b@example.org'] });
    await add('free', { tags: { team: 'y', plan: 'free' }, subject: 'Welcome', to: ['c@example.org'] });
    // A value that merely contains `"plan":"pro"` must not match the tag plan=pro.
    await add('sneaky', {
      tags: { note: '{"plan":"pro"}' },
      subject: '100% off_sale',
      to: ['d@example.org'],
    });
    await add('who', { subject: 'Receipt', to: ['Someone.Special@example.org'.toLowerCase()] });
    await add('delivered', { status: 'delivered', subject: 'Done', to: ['e@example.org'] });
  });
  after(async () => {
    await db.destroy();
    await app.stop();
  });

  const list = async (query: string, as = token) => {
    const res = await app.api.get<Page & { error: { code: string; details: unknown } }>(
      `/v1/emails?${query}`,
      {
        token: as,
      },
    );
    return res;
  };
  const idsOf = async (query: string) => {
    const res = await list(query);
    assert.equal(res.status, 200, res.text);
    return res.body.data.map((e) => e.id);
  };

  it('filters by tag name, and by name:value exactly', async () => {
    assert.deepEqual(await idsOf('tag=plan'), [ids.free, ids.plan]);
    assert.deepEqual(await idsOf('tag=plan:pro'), [ids.plan]);
    assert.deepEqual(await idsOf('tag=plan:free'), [ids.free]);
    assert.deepEqual(await idsOf('tag=team:x'), [ids.plan]);
    assert.deepEqual(await idsOf('tag=plan:pr'), []);
    assert.deepEqual(await idsOf('tag=note'), [ids.sneaky]);
  });

  it('filters by created range (from inclusive, to exclusive) in any offset', async () => {
    assert.deepEqual(await idsOf('to=2026-02-01T00:00:00Z'), [ids.old]);
    assert.deepEqual(
      await idsOf(`from=${encodeURIComponent('2026-01-10T13:00:00+01:00')}&to=2026-01-10T12:00:00.001Z`),
      [ids.old],
    );
    assert.deepEqual(await idsOf('from=2026-01-10T12:00:00.001Z&to=2026-02-01T00:00:00Z'), []);
    // A calendar day (a date input's value) is the whole UTC day, at either end.
    assert.deepEqual(await idsOf('from=2026-01-10&to=2026-01-10'), [ids.old]);
    assert.deepEqual(await idsOf('from=2026-01-11&to=2026-01-31'), []);
    assert.deepEqual(await idsOf('to=2026-01-09'), []);
    const recent = await idsOf('from=2026-02-01T00:00:00Z');
    assert.equal(recent.length, 5);
    assert.ok(!recent.includes(ids.old!));
  });

  it('searches subject and recipient, ignoring case, with LIKE wildcards taken literally', async () => {
    assert.deepEqual(await idsOf('q=INVOICE'), [ids.old]);
    assert.deepEqual(await idsOf('q=someone.special'), [ids.who]);
    assert.deepEqual(await idsOf('q=%25'), [ids.sneaky]);
    assert.deepEqual(await idsOf('q=f_s'), [ids.sneaky]);
    assert.deepEqual(await idsOf('q=0%25%20o'), [ids.sneaky]);
    assert.deepEqual(await idsOf('q=_'), [ids.sneaky]);
    assert.deepEqual(await idsOf('q=%5C'), []);
  });

  it('combines filters and pages through the filtered list with the cursor', async () => {
    assert.deepEqual(await idsOf('q=welcome&tag=plan:free'), [ids.free]);
    assert.deepEqual(await idsOf('status=delivered&q=done'), [ids.delivered]);
    assert.deepEqual(await idsOf('status=queued&q=done'), []);
    const seen: string[] = [];
    let query = 'from=2026-02-01T00:00:00Z&limit=2';
    for (;;) {
      const res = await list(query);
      assert.equal(res.status, 200);
      seen.push(...res.body.data.map((e) => e.id));
      if (!res.body.nextCursor) break;
      query = `from=2026-02-01T00:00:00Z&limit=2&cursor=${res.body.nextCursor}`;
    }
    assert.deepEqual(seen, [ids.delivered, ids.who, ids.sneaky, ids.free, ids.plan]);
  });

  it('is scoped to the account', async () => {
    const res = await list('q=welcome', other);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, []);
  });

  it('total=1 counts every message matching the filters, whatever the cursor, for the account only', async () => {
    const plain = await list('tag=plan');
    assert.equal(plain.status, 200);
    assert.equal(plain.body.total, undefined, 'no total unless asked for');
    const all = await list('total=1&limit=2');
    assert.equal(all.status, 200, all.text);
    assert.deepEqual(all.body.total, { count: 6, capped: false });
    assert.equal(all.body.data.length, 2);
    const next = await list(`total=1&limit=2&cursor=${all.body.nextCursor}`);
    assert.deepEqual(next.body.total, { count: 6, capped: false }, 'the cursor does not change the total');
    assert.deepEqual((await list('total=1&q=welcome')).body.total, { count: 2, capped: false });
    assert.deepEqual((await list('total=1&tag=plan:pro')).body.total, { count: 1, capped: false });
    assert.deepEqual((await list('total=1&status=delivered')).body.total, { count: 1, capped: false });
    assert.deepEqual((await list('total=1&from=2026-01-10&to=2026-01-10')).body.total, {
      count: 1,
      capped: false,
    });
    assert.deepEqual((await list('total=1&q=nothing-like-this')).body.total, { count: 0, capped: false });
    assert.deepEqual((await list('total=1', other)).body.total, { count: 0, capped: false });
    assert.equal((await list('total=yes')).status, 422);
  });

  it('the count stops at its bound (the API asks for one more than 10,000)', async () => {
    assert.equal(await countEmails(db, { userId: account.userId }, 3), 3);
    assert.equal(await countEmails(db, { userId: account.userId }, 100), 6);
    assert.equal(await countEmails(db, { userId: account.userId, text: 'welcome' }, 1), 1);
  });

  it('past 10,000 matches the total says 10,000 and capped', async () => {
    const big = await app.api.register();
    const domain = await app.api.post<{ id: string }>('/v1/domains', {
      token: big.token,
      body: { domain: 'big.example.com' },
    });
    await populateMail(db, {
      userId: big.userId,
      domainId: domain.body.id,
      domain: 'big.example.com',
      emails: 10_002,
      days: 3,
    });
    const all = await list('total=1&limit=1', big.token);
    assert.equal(all.status, 200, all.text);
    assert.deepEqual(all.body.total, { count: 10_000, capped: true });
    // populateMail bounces one message in 50: 200 of them, counted exactly.
    const bounced = await list('total=1&status=bounced', big.token);
    assert.deepEqual(bounced.body.total, { count: 200, capped: false });
    assert.deepEqual((await list('total=1', token)).body.total, { count: 6, capped: false }, 'per account');
  });

  it('GET /v1/suppressions?q= finds addresses by substring, ignoring case, wildcards literal', async () => {
    for (const email of ['bounce_1@example.org', 'bounceX1@example.org', 'other@example.net']) {
      const res = await app.api.post('/v1/suppressions', { token, body: { email, type: 'manual' } });
      assert.equal(res.status, 201, res.text);
    }
    const find = async (q: string, as = token) => {
      const res = await app.api.get<{ data: { email: string }[] }>(
        `/v1/suppressions?q=${encodeURIComponent(q)}`,
        {
          token: as,
        },
      );
      assert.equal(res.status, 200, res.text);
      return res.body.data.map((s) => s.email).sort();
    };
    assert.deepEqual(await find('BOUNCE'), ['bounce_1@example.org', 'bouncex1@example.org']);
    assert.deepEqual(await find('e_1'), ['bounce_1@example.org']);
    assert.deepEqual(await find('example.net'), ['other@example.net']);
    assert.deepEqual(await find('bounce', other), []);
    assert.equal((await app.api.get('/v1/suppressions?q=', { token })).status, 422);
  });

  it('refuses malformed filters with VALIDATION_ERROR', async () => {
    for (const query of [
      'tag=bad%20name',
      'tag=',
      'from=yesterday',
      'to=2026-13-01T00:00:00Z',
      'to=2026-02-30',
      'from=2026-1-1',
      'q=',
      `q=${'x'.repeat(101)}`,
    ]) {
      const res = await list(query);
      assert.equal(res.status, 422, query);
      assert.equal(res.body.error.code, 'VALIDATION_ERROR', query);
    }
  });
});

// Issue 23 item 3: credential limits hold across nodes. Two limiters (two apps) on two
// connections to one database share AUTH_RATE_LIMIT_PER_15_MIN and the submission AUTH
// failure budget, as the nodes of a cluster on one PostgreSQL do; on SQLite as well.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CredentialAttempts } from '../../../src/modules/accounts/credential-attempts';
import type { ApiNode, BackendDb } from '../../helpers/backend-api';
import { BACKENDS, openBackendDb, startApiNode } from '../../helpers/backend-api';
import { requirePostgres } from '../../helpers/postgres';

const WINDOW = 15 * 60_000;

for (const backend of BACKENDS) {
  const options = backend === 'postgres' ? requirePostgres() : {};

  describe(`credential attempts in the database (${backend})`, options, () => {
    let shared: BackendDb;
    before(async () => {
      shared = await openBackendDb(backend);
    });
    after(async () => {
      await shared.close();
    });

    it('two limiters on two connections share one budget; refused attempts are not counted', async () => {
      let now = Date.parse('2026-11-26T10:00:00Z');
      const a = new CredentialAttempts(shared.nodes[0], 3, WINDOW, () => now);
      const b = new CredentialAttempts(shared.nodes[1], 3, WINDOW, () => now);
      const seen = [];
      for (const limiter of [a, b, a, b, a]) seen.push((await limiter.hit('credentials:10.0.0.1')).allowed);
      assert.deepEqual(seen, [true, true, true, false, false]);
      assert.equal((await b.hit('credentials:10.0.0.2')).allowed, true, 'another IP has its own budget');
      // 3 in a window of a limit of 3: closed to its end, then until they weigh 2 (5 minutes).
      assert.equal((await a.hit('credentials:10.0.0.1')).retryAfterS, 15 * 60 + 5 * 60);
      // Half into the next window, the previous one's 3 weigh 1.5: one more attempt fits, not two.
      now += WINDOW + WINDOW / 2;
      assert.deepEqual(
        [(await b.hit('credentials:10.0.0.1')).allowed, (await a.hit('credentials:10.0.0.1')).allowed],
        [true, false],
      );
    });

    it('a success taken back does not count; Retry-After is when the budget really reopens', async () => {
      // Issue 28 item 6. 3 minutes into a window, so the previous window's weight matters.
      const start = Date.parse('2026-11-26T13:00:00Z');
      let now = start + 3 * 60_000;
      const a = new CredentialAttempts(shared.nodes[0], 10, WINDOW, () => now);
      const key = 'credentials:10.0.0.20';
      for (let i = 0; i < 12; i++) {
        const ok = await a.hit(key);
        assert.equal(ok.allowed, true, `success ${i + 1} was refused`);
        await ok.uncount();
      }
      for (let i = 0; i < 10; i++) assert.equal((await a.hit(key)).allowed, true, `failure ${i + 1}`);
      const first = await a.hit(key);
      assert.equal(first.allowed, false);
      // 10 in this window: closed to its end, then until the 10 weigh 9 in the next: 1.5 min more.
      assert.equal(first.retryAfterS, 12 * 60 + 90);
      now += 7_000;
      const later = await a.hit(key);
      assert.equal(later.retryAfterS, first.retryAfterS - 7, 'the same moment on every answer');
      now = start + 3 * 60_000 + (first.retryAfterS - 1) * 1000;
      assert.equal((await a.hit(key)).allowed, false, 'open a second early');
      now += 1000;
      assert.equal((await a.hit(key)).allowed, true, 'not open when Retry-After said');
    });

    it('attempts racing on both nodes never overshoot the budget', async () => {
      const now = Date.parse('2026-11-26T11:00:00Z');
      const a = new CredentialAttempts(shared.nodes[0], 5, WINDOW, () => now);
      const b = new CredentialAttempts(shared.nodes[1], 5, WINDOW, () => now);
      const decisions = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).hit('credentials:10.0.0.3')),
      );
      assert.equal(decisions.filter((d) => d.allowed).length, 5);
    });

    it('failures recorded by one MTA node block AUTH on another', async () => {
      const now = Date.parse('2026-11-26T12:00:00Z');
      const a = new CredentialAttempts(shared.nodes[0], 2, WINDOW, () => now);
      const b = new CredentialAttempts(shared.nodes[1], 2, WINDOW, () => now);
      await a.recordFailure('smtp-auth:10.0.0.9');
      assert.equal(await b.blocked('smtp-auth:10.0.0.9'), false);
      await b.recordFailure('smtp-auth:10.0.0.9');
      assert.equal(await a.blocked('smtp-auth:10.0.0.9'), true);
      assert.equal(await b.blocked('smtp-auth:10.0.0.9'), true);
      assert.equal(await a.blocked('smtp-auth:10.0.0.10'), false);
    });
  });

  describe(`AUTH_RATE_LIMIT_PER_15_MIN across two api nodes (${backend})`, options, () => {
    let shared: BackendDb;
    let nodes: ApiNode[];
    before(async () => {
      shared = await openBackendDb(backend);
      nodes = [
        await startApiNode(shared.nodes[0], shared, { AUTH_RATE_LIMIT_PER_15_MIN: '4' }),
        await startApiNode(shared.nodes[1], shared, { AUTH_RATE_LIMIT_PER_15_MIN: '4' }),
      ];
    });
    after(async () => {
      for (const n of nodes) await n.close();
      await shared.close();
    });

    it('login attempts spread over both nodes get the limit in all, not per node', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const node = nodes[i % 2];
        assert.ok(node);
        const res = await node.api.post('/v1/auth/login', {
          body: { email: 'x@example.com', password: 'y' },
        });
        statuses.push(res.status);
      }
      assert.deepEqual(statuses, [401, 401, 401, 401, 429, 429]);
    });
  });
}

// Issue 23: on SQLite a send transaction holds the one write lock (BEGIN IMMEDIATE), so
// two sends of one account never both read the allowance before either counts itself.
// PostgreSQL lets transactions run side by side: two nodes (two pools here) sending for
// one account at once must still not overshoot its allowance.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../../src/db/connect';
import { consumeQuota } from '../../../src/modules/quota/quota';
import { isAppError } from '../../../src/shared/app-error';
import type { BackendDb } from '../../helpers/backend-api';
import { openBackendDb } from '../../helpers/backend-api';
import { requirePostgres } from '../../helpers/postgres';

describe('quota under concurrent sends on PostgreSQL', requirePostgres(), () => {
  let shared: BackendDb;
  let nodeA: Db;
  let nodeB: Db;

  before(async () => {
    shared = await openBackendDb('postgres');
    [nodeA, nodeB] = shared.nodes;
  });
  after(() => shared.close());

  it('a second send of the account waits for the first and sees its count', async () => {
    const now = Date.parse('2026-11-26T12:00:30.000Z');
    const input = (emailId: string, domainId: string) => ({
      userId: 'usr_race',
      // Different domains and keys: only the account's own scope is shared.
      domainId,
      apiKeyId: null,
      emailId,
      count: 1,
      limits: { hour: 1, day: 100 },
      now,
    });
    const first = await nodeA.startTransaction().execute();
    await consumeQuota(first, input('email_a', 'dom_a'));
    let settled = false;
    const second = nodeB
      .transaction()
      .execute((trx) => consumeQuota(trx, input('email_b', 'dom_b')))
      .then(
        () => 'accepted',
        (err: unknown) => (isAppError(err) ? err.code : String(err)),
      )
      .finally(() => {
        settled = true;
      });
    await sleep(300);
    assert.equal(settled, false, 'the second send decided before the first committed');
    await first.commit().execute();
    assert.equal(await second, 'SENDING_LIMIT_EXCEEDED');
  });
});

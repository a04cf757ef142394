import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { migrate, openDb } from '../../../src/db/connect';

const MIGRATE_IN_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { migrate, openDb } = require(workerData.connect);
(async () => {
  const db = openDb({ file: workerData.file });
  try { parentPort.postMessage({ applied: await migrate(db) }); }
  catch (err) { parentPort.postMessage({ error: String(err) }); }
  finally { await db.destroy(); }
})();
`;

describe('migrations', () => {
  it('apply once even when several processes start together', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-mig-')), 'mail.db');
    const connect = path.join(__dirname, '..', '..', '..', 'src', 'db', 'connect.js');
    const runs = await Promise.all(
      [0, 1, 2].map(
        () =>
          new Promise<{ applied?: string[]; error?: string }>((resolve, reject) => {
            const w = new Worker(MIGRATE_IN_THREAD, { eval: true, workerData: { file, connect } });
            w.once('message', resolve);
            w.once('error', reject);
          }),
      ),
    );
    assert.deepEqual(
      runs.map((r) => r.error),
      [undefined, undefined, undefined],
    );
    const total = runs.flatMap((r) => r.applied ?? []);
    assert.equal(total.filter((m) => m === '001-foundation').length, 1);
    const db = openDb({ file });
    assert.deepEqual(await migrate(db), []);
    const pragma = await db.selectFrom('users').select('id').execute();
    assert.deepEqual(pragma, []);
    await db.destroy();
  });
});

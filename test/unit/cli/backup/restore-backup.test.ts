import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { databaseInUse } from '../../../../src/cli/appliance-probe';
import { createBackup } from '../../../../src/cli/backup/create-backup';
import { restoreBackup } from '../../../../src/cli/backup/restore-backup';
import { checkBackup } from '../../../../src/cli/backup/verify-backup';
import { openSqlite } from '../../../../src/db/connect';
import { backupWorkspace, rowCount, SECRET, seed } from './data-dir-fixture';

describe('backup and restore on a stopped DATA_DIR', () => {
  const workspace = backupWorkspace();
  const { configFor } = workspace;

  it('restores into an empty DATA_DIR, and refuses a damaged backup, a non-empty DATA_DIR and an open database', async () => {
    const dataDir = path.join(workspace.root, 'rt-data');
    seed(dataDir, 20);
    const dest = path.join(workspace.root, 'rt-backup');
    await createBackup({ config: configFor(dataDir), dest });

    const target = path.join(workspace.root, 'rt-target');
    const restored = await restoreBackup({ config: configFor(target), source: dest });
    assert.equal(restored.files, 2);
    assert.equal(rowCount(target), 20);
    assert.equal(fs.readFileSync(path.join(target, 'secret.key'), 'utf8').trim(), SECRET);
    assert.equal(fs.statSync(path.join(target, 'secret.key')).mode & 0o777, 0o600);
    assert.equal(fs.existsSync(path.join(target, 'mta')), false);

    await assert.rejects(restoreBackup({ config: configFor(target), source: dest }), /already holds data/);

    const db = openSqlite(path.join(target, 'mail.db'));
    try {
      assert.equal(databaseInUse(path.join(target, 'mail.db')), true);
      await assert.rejects(
        restoreBackup({ config: configFor(target), source: dest, force: true }),
        /running/,
      );
    } finally {
      db.close();
    }
    assert.equal(databaseInUse(path.join(target, 'mail.db')), false);

    const forced = await restoreBackup({ config: configFor(target), source: dest, force: true });
    assert.ok(forced.movedAside !== null && fs.existsSync(path.join(forced.movedAside, 'mail.db')));

    const damaged = path.join(workspace.root, 'rt-damaged');
    fs.cpSync(dest, damaged, { recursive: true });
    fs.appendFileSync(path.join(damaged, 'data', 'secret.key'), 'x');
    await assert.rejects(
      restoreBackup({ config: configFor(path.join(workspace.root, 'rt-other')), source: damaged }),
      /damaged/,
    );
  });

  it('refuses a different SECRET_KEY unless forced', async () => {
    const dataDir = path.join(workspace.root, 'sk-data');
    seed(dataDir, 1);
    const dest = path.join(workspace.root, 'sk-backup');
    await createBackup({ config: configFor(dataDir), dest });
    const target = path.join(workspace.root, 'sk-target');
    const other = { SECRET_KEY: 'z'.repeat(40) };
    await assert.rejects(
      restoreBackup({ config: configFor(target, other), source: dest }),
      /SECRET_KEY differs/,
    );
    const forced = await restoreBackup({ config: configFor(target, other), source: dest, force: true });
    assert.ok(forced.warnings.some((w) => w.includes('SECRET_KEY differs')));
    const same = await restoreBackup({
      config: configFor(path.join(workspace.root, 'sk-same'), { SECRET_KEY: SECRET }),
      source: dest,
    });
    assert.equal(same.warnings.length, 0);
  });

  it('streams a tar.gz and restores it from a stream, and writes .tar.gz files', async () => {
    const dataDir = path.join(workspace.root, 'tar-data');
    seed(dataDir, 30);
    const archive = path.join(workspace.root, 'streamed.tar.gz');
    const out = fs.createWriteStream(archive);
    const streamed = await createBackup({ config: configFor(dataDir), dest: '-', stdout: out });
    await new Promise<void>((resolve) => out.end(resolve));
    assert.equal(streamed.format, 'tar.gz');
    assert.deepEqual(
      fs.readdirSync(dataDir).filter((e) => e.startsWith('.backup-staging')),
      [],
      'staging removed',
    );
    const target = path.join(workspace.root, 'tar-target');
    await restoreBackup({ config: configFor(target), source: '-', stdin: fs.createReadStream(archive) });
    assert.equal(rowCount(target), 30);
    assert.deepEqual(
      fs.readdirSync(target).filter((e) => e.startsWith('.restore-staging')),
      [],
      'staging removed',
    );

    const file = path.join(workspace.root, 'file.tar.gz');
    const written = await createBackup({ config: configFor(dataDir), dest: file });
    assert.equal(written.path, file);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    const target2 = path.join(workspace.root, 'tar-target-2');
    await restoreBackup({ config: configFor(target2), source: file });
    assert.equal(rowCount(target2), 30);

    // --verify-only: reads the archive, checks it, writes nothing anywhere.
    assert.equal((await checkBackup(file)).files.length, 2);
    const truncated = path.join(workspace.root, 'truncated.tar.gz');
    fs.writeFileSync(truncated, fs.readFileSync(file).subarray(0, 200));
    await assert.rejects(checkBackup(truncated), /tar/);
  });
});

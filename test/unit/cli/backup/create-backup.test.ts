import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { BackupManifest } from '../../../../src/cli/backup/backup-manifest';
import { secretFingerprint } from '../../../../src/cli/backup/backup-manifest';
import { backupTarget, createBackup } from '../../../../src/cli/backup/create-backup';
import { restoreBackup } from '../../../../src/cli/backup/restore-backup';
import { verifyBackup } from '../../../../src/cli/backup/verify-backup';
import { backupWorkspace, SECRET, seed } from './data-dir-fixture';

describe('backup: destination', () => {
  it('reads the destination: stdout, archive or directory', () => {
    assert.deepEqual(backupTarget('-'), { kind: 'stdout' });
    assert.deepEqual(backupTarget('/b/x.tar.gz'), { kind: 'archive', file: '/b/x.tar.gz' });
    assert.deepEqual(backupTarget('/b/x.TGZ'), { kind: 'archive', file: '/b/x.TGZ' });
    assert.deepEqual(backupTarget('/b/x'), { kind: 'directory', dir: '/b/x' });
  });
});

describe('backup of a stopped DATA_DIR', () => {
  const workspace = backupWorkspace();
  const { configFor } = workspace;

  it('writes a verified directory backup without the live database files or rendered config', async () => {
    const dataDir = path.join(workspace.root, 'dir-data');
    seed(dataDir, 50);
    const dest = path.join(workspace.root, 'dir-backup');
    const lines: string[] = [];
    const result = await createBackup({ config: configFor(dataDir), dest, log: (l) => lines.push(l) });
    assert.equal(result.format, 'directory');
    assert.match(result.manifest.mailroomVersion, /^\d+\.\d+\.\d+/, 'the version is read from package.json');
    const files = result.manifest.files.map((f) => f.path);
    assert.deepEqual(files, ['mta-queue/1700000000000_1700000000000_0_1_AbCdEf_1_h', 'secret.key']);
    assert.equal(result.manifest.secretKey.source, 'file');
    assert.equal(result.manifest.secretKey.fingerprint, secretFingerprint(SECRET));
    assert.equal(fs.statSync(dest).mode & 0o777, 0o700);
    assert.equal(fs.statSync(path.join(dest, 'data', 'secret.key')).mode & 0o777, 0o600);
    assert.equal(fs.existsSync(path.join(dest, 'mail.db-wal')), false);
    const manifest: BackupManifest = await verifyBackup(dest);
    assert.equal(manifest.database.bytes, fs.statSync(path.join(dest, 'mail.db')).size);
    assert.ok(lines.some((l) => l.startsWith('database:')));
  });

  it('refuses to write over an existing destination and to back up a DATA_DIR without a database', async () => {
    const dataDir = path.join(workspace.root, 'ex-data');
    seed(dataDir, 1);
    const dest = path.join(workspace.root, 'ex-backup');
    fs.mkdirSync(dest);
    await assert.rejects(createBackup({ config: configFor(dataDir), dest }), /already exists/);
    const empty = path.join(workspace.root, 'ex-empty');
    fs.mkdirSync(empty);
    await assert.rejects(
      createBackup({ config: configFor(empty), dest: path.join(workspace.root, 'ex-b2') }),
      /no database/,
    );
  });
});

describe('backup and restore on PostgreSQL', () => {
  const workspace = backupWorkspace();
  const { configFor } = workspace;

  it('refuse, pointing at pg_dump and docs/backup.md, and write nothing (issue 23)', async () => {
    const dataDir = path.join(workspace.root, 'pg-data');
    seed(dataDir, 1);
    const config = { ...configFor(dataDir), databaseUrl: 'postgres://mail:pw@db.internal:5432/mail' };
    const dest = path.join(workspace.root, 'pg-backup');
    await assert.rejects(createBackup({ config, dest }), /PostgreSQL server.*pg_dump.*docs\/backup\.md/s);
    assert.equal(fs.existsSync(dest), false);
    await assert.rejects(restoreBackup({ config, source: dest }), /ctl restore.*pg_dump.*docs\/backup\.md/s);
  });
});

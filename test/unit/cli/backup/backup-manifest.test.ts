import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  backupStamp,
  defaultBackupName,
  isSafeRelativePath,
  secretFingerprint,
  validateManifest,
} from '../../../../src/cli/backup/backup-manifest';
import { SECRET } from './data-dir-fixture';

describe('backup manifest', () => {
  it('names backups by UTC time, sortably', () => {
    const d = new Date('2025-03-04T05:06:07.890Z');
    assert.equal(backupStamp(d), '20250304T050607Z');
    assert.equal(defaultBackupName(d), 'mailroom-backup-20250304T050607Z');
  });

  it('accepts only relative paths that stay inside DATA_DIR', () => {
    for (const p of ['secret.key', 'mta-queue/x', 'a/b/c']) assert.equal(isSafeRelativePath(p), true, p);
    for (const p of ['', '/etc/passwd', '../x', 'a/../../x', 'a//b', './a', 'a\\b', 'a\0b'])
      assert.equal(isSafeRelativePath(p), false, JSON.stringify(p));
  });

  it('refuses manifests that are not ours, too new, or point outside DATA_DIR', () => {
    const good = {
      format: 'mailroom-backup',
      version: 1,
      database: { file: 'mail.db', bytes: 1, sha256: 'a'.repeat(64) },
      secretKey: { source: 'file', fingerprint: 'x' },
      files: [{ path: 'secret.key', bytes: 44, sha256: 'b'.repeat(64), mode: 0o600 }],
    };
    assert.equal(validateManifest(good).version, 1);
    assert.throws(() => validateManifest({ ...good, format: 'other' }), /format/);
    assert.throws(() => validateManifest({ ...good, version: 2 }), /newer/);
    assert.throws(
      () => validateManifest({ ...good, files: [{ ...good.files[0], path: '../../etc/cron.d/x' }] }),
      /unsafe/,
    );
    assert.throws(() => validateManifest({ ...good, files: [good.files[0], good.files[0]] }), /duplicate/);
    assert.throws(() => validateManifest({ ...good, database: { file: 'mail.db' } }), /database/);
  });

  it('fingerprints the secret one way, stably', () => {
    assert.equal(secretFingerprint(SECRET), secretFingerprint(SECRET));
    assert.notEqual(secretFingerprint(SECRET), secretFingerprint(`${SECRET}x`));
    assert.equal(secretFingerprint(SECRET).includes(SECRET.slice(0, 8)), false);
  });
});

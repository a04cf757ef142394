import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Config } from '../../../src/config';
import { parseConfig } from '../../../src/config';
import type { BackupManifest } from '../../../src/cli/backup';
import {
  backupStamp,
  backupTarget,
  checkBackup,
  createBackup,
  databaseInUse,
  defaultBackupName,
  greetingName,
  isBackedUp,
  isSafeRelativePath,
  queueFileIdentity,
  restoreBackup,
  secretFingerprint,
  supersededQueueFiles,
  validateManifest,
  verifyBackup,
} from '../../../src/cli/backup';
import { openSqlite } from '../../../src/db/connect';
import { freePorts } from '../../helpers/free-port';

const SECRET = 'k'.repeat(43);

describe('backup: pure helpers', () => {
  it('names backups by UTC time, sortably', () => {
    const d = new Date('2025-03-04T05:06:07.890Z');
    assert.equal(backupStamp(d), '20250304T050607Z');
    assert.equal(defaultBackupName(d), 'mailroom-backup-20250304T050607Z');
  });

  it('reads the destination: stdout, archive or directory', () => {
    assert.deepEqual(backupTarget('-'), { kind: 'stdout' });
    assert.deepEqual(backupTarget('/b/x.tar.gz'), { kind: 'archive', file: '/b/x.tar.gz' });
    assert.deepEqual(backupTarget('/b/x.TGZ'), { kind: 'archive', file: '/b/x.TGZ' });
    assert.deepEqual(backupTarget('/b/x'), { kind: 'directory', dir: '/b/x' });
  });

  it('copies everything in DATA_DIR except the live database, rendered config, backups and temp files', () => {
    const db = new Set(['mail.db', 'mail.db-wal', 'mail.db-shm', 'mail.db-journal']);
    for (const rel of [
      'secret.key',
      'mta-queue/1_2_0_9_AbCdEf_1_host',
      'mta-queue/error.x',
      'inbound/a.eml',
      'tls/cert.pem',
    ])
      assert.equal(isBackedUp(rel, db), true, rel);
    for (const rel of [
      'mail.db',
      'mail.db-wal',
      'mail.db-shm',
      'mta/config/smtp.ini',
      'backups/mailroom-backup-1/mail.db',
      '.backup-staging-x/y',
      '.restore-staging-x/y',
      'pre-restore-20250101T000000Z/mail.db',
      'mta-queue/__tmp__.1_2_0_9_AbCdEf_1_host',
      'lost+found/x',
    ])
      assert.equal(isBackedUp(rel, db), false, rel);
  });

  it('names a Haraka queue file by arrival and uid across deferral renames', () => {
    assert.deepEqual(queueFileIdentity('1700000000000_1700000060000_1_4242_AbCdEf_3_mx\\137host'), {
      id: '1700000000000_AbCdEf',
      attempts: 1,
      nextAttempt: 1700000060000,
    });
    assert.equal(queueFileIdentity('error.1700000000000_1_0_1_A_1_h'), null);
    assert.equal(queueFileIdentity('not-a-queue-file'), null);
  });

  it('keeps only the latest name of a message deferred between the two copy passes', () => {
    const before = 'mta-queue/100_100_0_7_AbCdEf_1_h';
    const afterDeferral = 'mta-queue/100_400_1_7_AbCdEf_2_h';
    const other = 'mta-queue/200_200_0_7_ZzZzZz_3_h';
    assert.deepEqual(supersededQueueFiles([before, other, afterDeferral, 'secret.key']), [before]);
    assert.deepEqual(supersededQueueFiles([afterDeferral, before]), [before]);
    assert.deepEqual(supersededQueueFiles([other]), []);
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

  it('reads the server name from an SMTP greeting', () => {
    assert.equal(greetingName('220 MX.Example.test ESMTP Haraka ready'), 'mx.example.test');
    assert.equal(greetingName('220-mx.example.test ESMTP'), 'mx.example.test');
    assert.equal(greetingName('554 go away'), null);
  });

  it('fingerprints the secret one way, stably', () => {
    assert.equal(secretFingerprint(SECRET), secretFingerprint(SECRET));
    assert.notEqual(secretFingerprint(SECRET), secretFingerprint(`${SECRET}x`));
    assert.equal(secretFingerprint(SECRET).includes(SECRET.slice(0, 8)), false);
  });
});

describe('backup and restore on a stopped DATA_DIR', () => {
  let root: string;
  let ports: number[];

  const configFor = (dataDir: string, extra: Record<string, string> = {}): Config =>
    parseConfig({
      DATA_DIR: dataDir,
      PORT: String(ports[0]),
      WORKER_PORT: String(ports[1]),
      SMTP_PORT: String(ports[2]),
      SUBMISSION_PORT: String(ports[3]),
      MTA_INJECT_PORT: String(ports[4]),
      BIND_ADDRESS: '127.0.0.1',
      MAIL_HOSTNAME: 'mx.backup.test',
      ...extra,
    });

  /** A DATA_DIR as the appliance leaves it: database (WAL), secret, queue, rendered config. */
  const seed = (dataDir: string, rows: number): void => {
    fs.mkdirSync(path.join(dataDir, 'mta-queue'), { recursive: true, mode: 0o700 });
    fs.mkdirSync(path.join(dataDir, 'mta', 'config'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'secret.key'), `${SECRET}\n`, { mode: 0o600 });
    fs.writeFileSync(path.join(dataDir, 'mta-queue', '1700000000000_1700000000000_0_1_AbCdEf_1_h'), 'queued');
    fs.writeFileSync(path.join(dataDir, 'mta', 'config', 'smtp.ini'), 'rendered');
    const db = openSqlite(path.join(dataDir, 'mail.db'));
    db.exec('create table if not exists t (id integer primary key, v text)');
    const insert = db.prepare('insert into t (v) values (?)');
    for (let i = 0; i < rows; i++) insert.run(`row ${i}`);
    db.close();
  };

  const rowCount = (dataDir: string): number => {
    const db = openSqlite(path.join(dataDir, 'mail.db'));
    try {
      return (db.prepare('select count(*) as n from t').get() as { n: number }).n;
    } finally {
      db.close();
    }
  };

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-backup-unit-'));
    ports = await freePorts(5);
  });
  after(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('writes a verified directory backup without the live database files or rendered config', async () => {
    const dataDir = path.join(root, 'dir-data');
    seed(dataDir, 50);
    const dest = path.join(root, 'dir-backup');
    const lines: string[] = [];
    const result = await createBackup({ config: configFor(dataDir), dest, log: (l) => lines.push(l) });
    assert.equal(result.format, 'directory');
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

  it('restores into an empty DATA_DIR, and refuses a damaged backup, a non-empty DATA_DIR and an open database', async () => {
    const dataDir = path.join(root, 'rt-data');
    seed(dataDir, 20);
    const dest = path.join(root, 'rt-backup');
    await createBackup({ config: configFor(dataDir), dest });

    const target = path.join(root, 'rt-target');
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

    const damaged = path.join(root, 'rt-damaged');
    fs.cpSync(dest, damaged, { recursive: true });
    fs.appendFileSync(path.join(damaged, 'data', 'secret.key'), 'x');
    await assert.rejects(
      restoreBackup({ config: configFor(path.join(root, 'rt-other')), source: damaged }),
      /damaged/,
    );
  });

  it('refuses a different SECRET_KEY unless forced', async () => {
    const dataDir = path.join(root, 'sk-data');
    seed(dataDir, 1);
    const dest = path.join(root, 'sk-backup');
    await createBackup({ config: configFor(dataDir), dest });
    const target = path.join(root, 'sk-target');
    const other = { SECRET_KEY: 'z'.repeat(40) };
    await assert.rejects(
      restoreBackup({ config: configFor(target, other), source: dest }),
      /SECRET_KEY differs/,
    );
    const forced = await restoreBackup({ config: configFor(target, other), source: dest, force: true });
    assert.ok(forced.warnings.some((w) => w.includes('SECRET_KEY differs')));
    const same = await restoreBackup({
      config: configFor(path.join(root, 'sk-same'), { SECRET_KEY: SECRET }),
      source: dest,
    });
    assert.equal(same.warnings.length, 0);
  });

  it('streams a tar.gz and restores it from a stream, and writes .tar.gz files', async () => {
    const dataDir = path.join(root, 'tar-data');
    seed(dataDir, 30);
    const archive = path.join(root, 'streamed.tar.gz');
    const out = fs.createWriteStream(archive);
    const streamed = await createBackup({ config: configFor(dataDir), dest: '-', stdout: out });
    await new Promise<void>((resolve) => out.end(resolve));
    assert.equal(streamed.format, 'tar.gz');
    assert.deepEqual(
      fs.readdirSync(dataDir).filter((e) => e.startsWith('.backup-staging')),
      [],
      'staging removed',
    );
    const target = path.join(root, 'tar-target');
    await restoreBackup({ config: configFor(target), source: '-', stdin: fs.createReadStream(archive) });
    assert.equal(rowCount(target), 30);
    assert.deepEqual(
      fs.readdirSync(target).filter((e) => e.startsWith('.restore-staging')),
      [],
      'staging removed',
    );

    const file = path.join(root, 'file.tar.gz');
    const written = await createBackup({ config: configFor(dataDir), dest: file });
    assert.equal(written.path, file);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    const target2 = path.join(root, 'tar-target-2');
    await restoreBackup({ config: configFor(target2), source: file });
    assert.equal(rowCount(target2), 30);

    // --verify-only: reads the archive, checks it, writes nothing anywhere.
    assert.equal((await checkBackup(file)).files.length, 2);
    const truncated = path.join(root, 'truncated.tar.gz');
    fs.writeFileSync(truncated, fs.readFileSync(file).subarray(0, 200));
    await assert.rejects(checkBackup(truncated), /tar/);
  });

  it('refuses to write over an existing destination and to back up a DATA_DIR without a database', async () => {
    const dataDir = path.join(root, 'ex-data');
    seed(dataDir, 1);
    const dest = path.join(root, 'ex-backup');
    fs.mkdirSync(dest);
    await assert.rejects(createBackup({ config: configFor(dataDir), dest }), /already exists/);
    const empty = path.join(root, 'ex-empty');
    fs.mkdirSync(empty);
    await assert.rejects(
      createBackup({ config: configFor(empty), dest: path.join(root, 'ex-b2') }),
      /no database/,
    );
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import type { Config } from '../../../../src/config';
import { parseConfig } from '../../../../src/config';
import { openSqlite } from '../../../../src/db/connect';
import { freePorts } from '../../../helpers/free-port';
import { listenerEnv } from '../../../helpers/listener-env';

export const SECRET = 'k'.repeat(43);

export interface BackupWorkspace {
  /** A fresh directory for the block's DATA_DIRs and backups. */
  readonly root: string;
  /** A configuration for `dataDir` whose listeners are on free ports, nothing running there. */
  readonly configFor: (dataDir: string, extra?: Record<string, string>) => Config;
}

/** Hooks of the calling describe block: a temporary root and free ports, removed after the block. */
export function backupWorkspace(): BackupWorkspace {
  let root = '';
  let ports: number[] = [];
  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-backup-unit-'));
    ports = await freePorts(5);
  });
  after(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });
  return {
    get root() {
      return root;
    },
    configFor: (dataDir, extra = {}) =>
      parseConfig({
        DATA_DIR: dataDir,
        ...listenerEnv(ports),
        MAIL_HOSTNAME: 'mx.backup.test',
        ...extra,
      }),
  };
}

/** A DATA_DIR as the appliance leaves it: database (WAL), secret, queue, rendered config. */
export function seed(dataDir: string, rows: number): void {
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
}

export function rowCount(dataDir: string): number {
  const db = openSqlite(path.join(dataDir, 'mail.db'));
  try {
    return (db.prepare('select count(*) as n from t').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

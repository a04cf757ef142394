import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Db } from '../../src/db/connect';
import { migrate, openDb } from '../../src/db/connect';

export interface TestDb {
  readonly db: Db;
  readonly file: string;
  /** Another connection to the same file, as a second process would have. */
  open(): Db;
  close(): Promise<void>;
}

/** A real SQLite file in a fresh temp dir, built by the real migrations. */
export async function createTestDb(): Promise<TestDb> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-jobs-'));
  const file = path.join(dir, 'mail.db');
  const db = openDb({ file });
  await migrate(db);
  const extra: Db[] = [];
  return {
    db,
    file,
    open: () => {
      const other = openDb({ file });
      extra.push(other);
      return other;
    },
    close: async () => {
      for (const other of extra) await other.destroy();
      await db.destroy();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

// A database on either backend as several nodes see it (one connection pool each, built by
// the real migrations), and an in-process api node on one of them: for the tests of what
// the nodes of a cluster share (issue 23 item 3), run on SQLite and on a real PostgreSQL.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import type { AppConfig } from '../../src/config';
import { parseConfig } from '../../src/config';
import type { Db } from '../../src/db/connect';
import { startApiWriter } from '../../src/api/api-writer';
import { createApp } from '../../src/api/app';
import { SessionSigner } from '../../src/modules/accounts/sessions';
import { ApiClient } from './http-client';
import { createTestDb } from './test-db';

export type Backend = 'sqlite' | 'postgres';
export const BACKENDS: readonly Backend[] = ['sqlite', 'postgres'];

export interface BackendDb {
  /** Two pools on one database, as two nodes have. */
  readonly nodes: readonly [Db, Db];
  /** A fresh DATA_DIR (holds the SQLite file on SQLite). */
  readonly dataDir: string;
  /** The DATABASE_URL of the database. */
  readonly url: string;
  close(): Promise<void>;
}

/** createTestDb() on the given backend, with a second pool open. */
export async function openBackendDb(backend: Backend): Promise<BackendDb> {
  const t = await createTestDb({ backend });
  return { nodes: [t.db, t.open()], dataDir: t.dataDir, url: t.url, close: () => t.close() };
}

export const TEST_INTERNAL_TOKEN = 'i'.repeat(32);

export interface ApiNode {
  readonly api: ApiClient;
  readonly config: AppConfig;
  close(): Promise<void>;
}

/**
 * One api node: the real app on its own pool (`db`) to the database at `at.url`, which its
 * writer thread opens too.
 */
export async function startApiNode(
  db: Db,
  at: { readonly dataDir: string; readonly url: string },
  env: Record<string, string> = {},
): Promise<ApiNode> {
  const config = {
    ...parseConfig({ DATA_DIR: at.dataDir, DATABASE_URL: at.url, SIGNUP_MODE: 'open', ...env }),
    secretKey: 'k'.repeat(32),
    internalApiToken: TEST_INTERNAL_TOKEN,
  };
  const writer = startApiWriter(config, { onFatal: (err) => assert.fail(String(err)) });
  const app = createApp({
    db,
    sendCommitter: writer,
    config,
    log: pino({ level: 'silent' }),
    sessions: new SessionSigner(config.secretKey, 60),
  });
  const server = http.createServer(app.app.callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    api: new ApiClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    config,
    close: async () => {
      app.close();
      await writer.close();
      await new Promise((r) => server.close(r));
    },
  };
}

import type { AppConfig } from '../config';
import { loadConfig, sqlitePath } from '../config';
import type { Db } from '../db/connect';
import { openDb } from '../db/connect';
import { WriteBatcher } from '../db/write-batcher';
import { createSealer } from '../shared/seal';
import { injectCredential } from './inject-credential';
import type { SigningKeys } from './signing-keys';
import { createSigningKeys } from './signing-keys';

/**
 * What the Haraka process needs beyond its rendered configuration: the master
 * secret (injection credential, sealed DKIM keys) and the database (signing keys,
 * outcome jobs). Haraka inherits the mta process's environment, so loadConfig()
 * here resolves the same SECRET_KEY (or `$DATA_DIR/secret.key`, which the mta
 * process created before starting Haraka) and the same DATABASE_URL.
 *
 * Built on first use, not at plugin registration: the database may not be
 * migrated yet when Haraka boots, and Haraka started by hand or by a test for
 * the MX alone never needs either. One instance per process (plugins are loaded
 * with a real `require`, so every plugin shares this module).
 */
let config: AppConfig | undefined;
let db: Db | undefined;
let signingKeys: SigningKeys | undefined;
let writes: WriteBatcher | undefined;

function runtimeConfig(): AppConfig {
  config ??= loadConfig().config;
  return config;
}

/** The credential the worker must present on the injection listener. */
export function expectedInjectCredential(): { user: string; pass: string } {
  return injectCredential(runtimeConfig().secretKey);
}

/** The appliance database (WAL, synchronous=FULL: a commit is on disk when it returns). */
export function mtaDb(): Db {
  db ??= openDb({ file: sqlitePath(runtimeConfig()) });
  return db;
}

/**
 * Group commit for the MX's intake (src/mta/inbound-intake.ts): the job rows of
 * messages that reach end of data while a commit is in flight are committed
 * together in the next transaction, each message still answered 250 only after
 * the commit that holds its jobs. better-sqlite3 commits synchronously on
 * Haraka's event loop, so one fsync per batch instead of one per message also
 * frees that loop for the other sessions (issue 11, inbound throughput).
 */
export function mtaWrites(): WriteBatcher {
  writes ??= new WriteBatcher(mtaDb());
  return writes;
}

export function mtaSigningKeys(): SigningKeys {
  signingKeys ??= createSigningKeys({
    db: mtaDb(),
    sealer: createSealer({ secretKey: runtimeConfig().secretKey }),
  });
  return signingKeys;
}

/** DATA_DIR, where accepted inbound mail is written (src/modules/inbound/raw-store.ts). */
export function mtaDataDir(): string {
  return runtimeConfig().dataDir;
}

import type { AppConfig } from '../config';
import { loadConfig } from '../config';
import type { Db } from '../db/connect';
import { openDatabase } from '../db/connect';
import type { AddressGuard } from '../mail/address-guard';
import { outboundGuardFromConfig } from '../mail/address-guard';
import type { StorageGuard } from '../shared/disk-space';
import { storageGuardFor } from '../shared/disk-space';
import { createSealer } from '../shared/seal';
import type { IntakeCommit } from './inbound-intake';
import type { MxPath } from './mx-guard';
import { verpKey } from '../mail/verp-address';
import type { InjectSenderChecks } from './inject-verdicts';
import { isEmailBeingSent } from './inject-sender.repository';
import { injectCredential } from '../modules/delivery/inject-credential';
import type { DeliveryReportsRecorder } from './delivery-reports';
import type { MtaWriter, SubmissionWriter } from './mta-writer';
import { startMtaWriter } from './mta-writer';
import type { SigningKeys } from './signing-keys';
import { createSigningKeys } from './signing-keys';
import { rawStoreFor } from '../modules/inbound/raw-store-of';
import type { RawStore } from '../modules/inbound/raw-store';

/**
 * What the Haraka process needs beyond its rendered configuration: the master
 * secret (injection credential, sealed DKIM keys) and the database (signing keys,
 * delivery reports through the writer thread). Haraka inherits the mta process's environment, so loadConfig()
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
let writer: MtaWriter | undefined;
let outboundGuard: AddressGuard | undefined;

function runtimeConfig(): AppConfig {
  config ??= loadConfig().config;
  return config;
}

/** The credential the worker must present on the injection listener. */
export function expectedInjectCredential(): { user: string; pass: string } {
  return injectCredential(runtimeConfig().secretKey);
}

/** What the injection listener's MAIL check reads (src/mta/inject-verdicts.ts). */
export function mtaInjectSenderChecks(): InjectSenderChecks {
  return {
    // The key of the tags in-flight mail carries (src/mail/verp-address.ts).
    tagKey: () => verpKey(runtimeConfig().secretKey),
    isBeingSent: (emailId, domain) => isEmailBeingSent(mtaDb(), emailId, domain),
  };
}

/** What an MX may resolve to (OUTBOUND_ALLOW_PRIVATE, OUTBOUND_ALLOWED_CIDRS; src/mta/mx-guard.ts). */
export function mtaOutboundGuard(): AddressGuard {
  outboundGuard ??= outboundGuardFromConfig(runtimeConfig());
  return outboundGuard;
}

/** How the allowed MX addresses are reached (src/mta/mx-guard.ts MxPath). */
export function mtaMxPath(): MxPath {
  const c = runtimeConfig();
  return {
    ipv6: c.outboundIpv6,
    port: c.outboundMxPort,
    sourceV4: c.outboundSourceAddress,
    sourceV6: c.outboundSourceAddressV6,
  };
}

/** The appliance database (WAL, synchronous=FULL: a commit is on disk when it returns). */
export function mtaDb(): Db {
  const c = runtimeConfig();
  db ??= openDatabase(c.databaseUrl, { poolSize: c.databasePoolSize, applicationName: 'mailroom-mta' });
  return db;
}

/**
 * The process's one writer thread (src/mta/mta-writer.ts): its own database
 * connection and group commit, shared by the MX intake and the outbound hooks'
 * delivery reports. Units that reach it while a commit is in flight are committed
 * together in the next transaction, and the fsync of each commit (or a wait for
 * the write lock) runs off Haraka's event loop, so the other SMTP sessions go on
 * meanwhile (issue 11). Each caller is answered only after the commit that holds
 * its unit.
 */
function mtaWriter(): MtaWriter {
  writer ??= startMtaWriter({ url: runtimeConfig().databaseUrl, config: runtimeConfig() });
  return writer;
}

/** The MX intake's commit (src/mta/inbound-intake.ts), in the writer thread. */
export function mtaIntakeCommit(): IntakeCommit {
  return mtaWriter().intake;
}

/** The outbound hooks' delivery reports (src/mta/delivery-reports.ts), in the writer thread. */
export function mtaDeliveryReports(): DeliveryReportsRecorder {
  return mtaWriter().deliveryReports;
}

/** SMTP submission's AUTH and commit (src/mta/submission/), in the writer thread. */
export function mtaSubmission(): SubmissionWriter {
  return mtaWriter().submission;
}

export function mtaSigningKeys(): SigningKeys {
  signingKeys ??= createSigningKeys({
    db: mtaDb(),
    sealer: createSealer({ secretKey: runtimeConfig().secretKey }),
  });
  return signingKeys;
}

/** DATA_DIR (the pacing plugin's destination limits live there). */
export function mtaDataDir(): string {
  return runtimeConfig().dataDir;
}

/** The first and the longest back-off of a throttling destination, ms (src/mta/destination-pacing.ts). */
export function mtaBackoffBounds(): { readonly baseMs: number; readonly capMs: number } {
  const c = runtimeConfig();
  return { baseMs: c.mtaBackoffBaseS * 1000, capMs: Math.max(c.mtaBackoffBaseS, c.mtaBackoffMaxS) * 1000 };
}

/**
 * Where accepted inbound mail is written (src/modules/inbound/raw-store.ts): files under
 * DATA_DIR on SQLite, `raw_messages` rows (in the intake's commit) on PostgreSQL.
 */
export function mtaRawStore(): RawStore {
  return rawStoreFor(mtaDb(), runtimeConfig().dataDir);
}

/** The free-space floor of DATA_DIR, the database and the MTA queue (src/shared/disk-space.ts). */
export function mtaStorageGuard(): StorageGuard {
  return storageGuardFor(runtimeConfig());
}

/**
 * Closes this process's database connections: the writer thread's and mtaDb().
 * For the end of a graceful stop, once Haraka has nothing left to do: SQLite
 * checkpoints the WAL and removes mail.db-wal/-shm when the appliance's last
 * connection closes, which a process that exits with its connections open
 * prevents (harmless — the next open recovers — but a clean stop leaves a clean
 * DATA_DIR).
 */
export async function closeMtaRuntime(): Promise<void> {
  const thread = writer;
  writer = undefined;
  if (thread) await thread.close();
  signingKeys = undefined;
  const open = db;
  db = undefined;
  if (open) await open.destroy();
}

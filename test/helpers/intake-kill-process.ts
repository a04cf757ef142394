// A process for the intake crash test (issue 23 item 3): the MX's real intake (raw copy
// stored through the backend's raw store, jobs enqueued) inside a transaction that is never
// committed: it prints KILL_ME_MARKER there and waits for the SIGKILL the test sends.
// Configured through the environment: INTAKE_DB_URL (migrated), INTAKE_DATA_DIR, INTAKE_USER_ID.
import { Readable } from 'node:stream';
import { openDatabase } from '../../src/db/connect';
import { rawStoreFor } from '../../src/modules/inbound/raw-store-of';
import { acceptInbound, enqueueIntakeJobs } from '../../src/mta/inbound-intake';

export const KILL_ME_MARKER = 'INTAKE_INSIDE_TRANSACTION';

function env(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${name} is required`);
  return value;
}

async function main(): Promise<void> {
  const db = openDatabase(env('INTAKE_DB_URL'), { poolSize: 1 });
  await acceptInbound({
    commit: (jobs) =>
      db.transaction().execute(async (trx) => {
        const created = await enqueueIntakeJobs(trx, jobs);
        process.stdout.write(`${KILL_ME_MARKER}\n`);
        // Never commits: the test kills the process here.
        await new Promise(() => undefined);
        return created;
      }),
    store: rawStoreFor(db, env('INTAKE_DATA_DIR')),
    message: () => Readable.from([Buffer.from('Subject: killed\r\n\r\nmid-commit\r\n')]),
    envelope: { mailFrom: 'a@example.org', remoteIp: null, helo: null, receivedAt: new Date().toISOString() },
    recipients: [
      {
        address: 'sales@inbox.example.com',
        route: { kind: 'receive', domainId: 'dom_x', userId: env('INTAKE_USER_ID') },
      },
    ],
  });
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${String(err)}\n`);
    process.exit(1);
  });
}

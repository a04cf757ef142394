// Runs a command beside ONE PostgreSQL server for the whole run (issue 23, "Tests"):
//   node scripts/with-postgres.mjs [--if-available] -- <command> [args...]
// starts a throwaway server (test/helpers/postgres-server.ts: initdb in a temp dir, run as an
// unprivileged user), exports its superuser URL as MAILROOM_TEST_PG_URL, runs the command,
// then stops the server and removes its files — also on SIGINT/SIGTERM. Test processes then
// create databases on it (test/helpers/postgres.ts) instead of starting a server each.
// With --if-available and no PostgreSQL installed, the command runs without a server and
// the PostgreSQL tests skip loudly (or fail under CI=true). Needs a build (dist/).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const { findPostgresBinaries, startPostgresServer } = require(
  path.join(root, 'dist', 'test', 'helpers', 'postgres-server.js'),
);

const args = process.argv.slice(2);
const ifAvailable = args[0] === '--if-available';
const rest = ifAvailable ? args.slice(1) : args;
const command = rest[0] === '--' ? rest.slice(1) : rest;
if (command.length === 0) {
  console.error('usage: node scripts/with-postgres.mjs [--if-available] -- <command> [args...]');
  process.exit(2);
}

let server;
const env = { ...process.env };
if (env.MAILROOM_TEST_PG_URL) {
  // Someone else runs the server for this run already (an outer with-postgres, or CI's own).
} else if (findPostgresBinaries()) {
  server = startPostgresServer();
  env.MAILROOM_TEST_PG_URL = server.adminUrl;
  console.error(`with-postgres: PostgreSQL for this run at ${server.adminUrl}`);
} else if (!ifAvailable) {
  console.error('with-postgres: PostgreSQL is not installed (apt-get install postgresql)');
  process.exit(1);
}

const child = spawn(command[0], command.slice(1), { stdio: 'inherit', env });
const stop = () => server?.stop();
process.on('exit', stop);
for (const signal of ['SIGINT', 'SIGTERM']) {
  // The child gets the signal too (same process group for a terminal's Ctrl-C); pass it on
  // anyway for a signal sent to this process alone, and stop the server once the child is done.
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => {
  stop();
  process.exit(code ?? (signal ? 128 : 1));
});

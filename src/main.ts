import { spawn } from 'node:child_process';
import path from 'node:path';
import type { BootResult } from './boot';
import { childEnvironment } from './config/child-env';
import { NODE_ROLES_ENV } from './config/process-env';
import type { ProcessName } from './supervisor';
import { restrictNewFiles } from './shared/private-files';
import { PROCESS_NAMES, Supervisor, lineLogger } from './supervisor';

// The supervisor lives as long as the appliance: it imports only node built-ins and
// ./supervisor. Configuration, secret key and migrations run in a short-lived child
// (./boot), so zod, kysely, better-sqlite3 and pino never load here (issue 11).
const BOOT = path.join(__dirname, 'boot.js');

function selectedProcesses(argv: readonly string[]): ProcessName[] {
  if (argv.length === 0) return [...PROCESS_NAMES];
  const names = argv.flatMap((a) => a.split(',')).filter((a) => a !== '');
  const unknown = names.filter((n) => !(PROCESS_NAMES as readonly string[]).includes(n));
  if (unknown.length > 0)
    throw new Error(`unknown process name(s): ${unknown.join(', ')} (use api, worker, mta)`);
  return names as ProcessName[];
}

/** Runs ./boot; resolves with its settings, or exits with its code (78: invalid configuration). */
function runBoot(): Promise<BootResult> {
  return new Promise((resolve) => {
    let result: BootResult | undefined;
    const child = spawn(process.execPath, [BOOT], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.on('message', (m: BootResult) => (result = m));
    child.on('exit', (code, signal) => {
      if (code === 0 && result !== undefined) resolve(result);
      else process.exit(code ?? (signal === null ? 1 : 128));
    });
  });
}

/**
 * `npm start` (or `node dist/src/main.js [api,worker,mta]`): validates config,
 * creates the secret key and schema once, then supervises the processes.
 */
async function main(): Promise<void> {
  const names = selectedProcesses(process.argv.slice(2));
  const settings = await runBoot();
  const log = lineLogger({ level: settings.logLevel, process: 'supervisor', node: settings.nodeName });

  const supervisor = new Supervisor({
    names,
    log,
    shutdownTimeoutMs: settings.shutdownTimeoutMs,
    // The children learn the node's roles from the selection (the worker claims sends only beside an mta).
    env: childEnvironment({ ...settings.childEnv, [NODE_ROLES_ENV]: names.join(',') }),
    // A child that cannot start stops the appliance with its code (71: a listener could not bind).
    onGiveUp: (code) => {
      log.info({ event: 'supervisor_stopped', code }, 'stopped');
      process.exit(code);
    },
  });
  supervisor.start();
  log.info({ event: 'supervisor_started', processes: names, dataDir: settings.dataDir }, 'mailroom started');

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log.info({ event: 'supervisor_stopping', signal }, 'stopping');
    void supervisor.stop().then(() => {
      log.info({ event: 'supervisor_stopped' }, 'stopped');
      process.exit(0);
    });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

// Before anything is created: every process the supervisor starts inherits the mask.
restrictNewFiles();
main().catch((err: unknown) => {
  const line = {
    level: 'fatal',
    time: new Date().toISOString(),
    process: 'supervisor',
    event: 'supervisor_crashed',
    msg: err instanceof Error ? err.message : String(err),
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
  process.exit(1);
});

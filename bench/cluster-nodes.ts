// Appliances on PostgreSQL for the benchmarks: one node, or a cluster of nodes sharing one
// database and one SECRET_KEY (issue 23), and the PostgreSQL server's own CPU.
import fs from 'node:fs';
import path from 'node:path';
import type { Appliance, ApplianceOptions } from '../test/helpers/appliance';
import { startAppliance } from '../test/helpers/appliance';
import type { Bench } from './lib';
import { BENCH_ENV, cpuMs, processTree, startBench, WORK } from './lib';
import { benchPostgresUrl } from './pg-backend';

/** Every node of a cluster must share it: it seals the DKIM keys the nodes sign with. */
const CLUSTER_SECRET_KEY = 'bench-cluster-secret-key-0123456789abcdef0123456789';

export interface PgCluster {
  /** The first node, with the account, API key and verified domain (`bench.app` is nodes[0]). */
  readonly bench: Bench;
  readonly nodes: readonly Appliance[];
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * `count` nodes on a fresh PostgreSQL database, started one after the other (the first runs
 * the migrations and registers the account), each with its own DATA_DIR and ports.
 */
export async function startPgCluster(
  count: number,
  options: Pick<ApplianceOptions, 'processes'> & { readonly env?: Record<string, string> } = {},
): Promise<PgCluster> {
  const url = await benchPostgresUrl();
  const env = {
    DATABASE_URL: url,
    SECRET_KEY: CLUSTER_SECRET_KEY,
    NODE_NAME: 'bench-node-1',
    ...options.env,
  };
  const bench = await startBench({ ...options, env });
  const nodes: Appliance[] = [bench.app];
  const extra: { dataDir: string; logFile: string }[] = [];
  try {
    for (let i = 2; i <= count; i++) {
      const dataDir = fs.mkdtempSync(path.join(WORK, 'data-'));
      const logFile = path.join(WORK, `appliance-${path.basename(dataDir)}.log`);
      extra.push({ dataDir, logFile });
      nodes.push(
        await startAppliance({
          ...options,
          dataDir,
          logFile,
          env: { ...BENCH_ENV, DNS_SERVERS: bench.dns.address, ...env, NODE_NAME: `bench-node-${i}` },
        }),
      );
    }
  } catch (e) {
    await Promise.allSettled(nodes.slice(1).map((n) => n.stop()));
    await bench.stop();
    throw e;
  }
  return {
    bench,
    nodes,
    url,
    async stop() {
      await Promise.allSettled(nodes.slice(1).map((n) => n.stop()));
      await bench.stop();
      for (const x of extra) {
        fs.rmSync(x.dataDir, { recursive: true, force: true });
        fs.rmSync(x.logFile, { force: true });
      }
    },
  };
}

/**
 * The postmaster serving `url` on this machine (its command line carries `-p <port>`; the
 * harness starts it so), or undefined for a server elsewhere (MAILROOM_BENCH_PG_URL).
 */
export function postmasterPid(url: string): number | undefined {
  const { hostname, port } = new URL(url);
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(hostname)) return undefined;
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const argv = fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
      if (!argv[0]?.endsWith('postgres')) continue;
      const p = argv.indexOf('-p');
      if (p >= 0 && argv[p + 1] === (port || '5432')) return Number(d);
    } catch {
      /* exited */
    }
  }
  return undefined;
}

/**
 * CPU ms the PostgreSQL server has used, or NaN when not local: user + system time of the
 * postmaster and its live backends, plus what its exited backends used (cutime + cstime:
 * the postmaster reaps them, and a pool closes idle connections between runs).
 */
export function postgresCpuMs(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  return processTree(pid).reduce((a, p) => a + cpuMs(p) + reapedChildrenCpuMs(p), 0);
}

/** cutime + cstime of a process (fields 16 and 17 of /proc/<pid>/stat, 100 Hz ticks), 0 when gone. */
function reapedChildrenCpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(rest[13]) + Number(rest[14])) * 10;
  } catch {
    return 0;
  }
}

// end-to-end on PostgreSQL beside SQLite (issue 23, Bench): N messages accepted through the API
// and relayed by the MTA to Postfix's smtp-sink, as end-to-end measures Mailroom, for three
// set-ups in turn each repeat (fresh every time): one node on SQLite, one node on PostgreSQL,
// two whole nodes (api + worker + mta each) on one PostgreSQL with the clients spread over both.
import os from 'node:os';
import type { Run } from './end-to-end';
import { CONNECTIONS, mailroomRun } from './end-to-end';
import type { Spread } from './lib';
import {
  ensurePostfix,
  fmt,
  fmtSpread,
  log,
  ports,
  spread,
  startBench,
  startSmtpSink,
  stopChild,
} from './lib';
import { postgresCpuMs, postmasterPid, startPgCluster } from './cluster-nodes';
import { benchPostgresAvailable, postgresEmailStore, postgresVersion, skippedSection } from './pg-backend';
import type { Options, Section } from './types';

const SETUPS = ['SQLite, one node', 'PostgreSQL, one node', 'PostgreSQL, two nodes'] as const;
type SetupName = (typeof SETUPS)[number];

interface Sample extends Run {
  /** PostgreSQL server CPU per delivered message (ms), NaN on SQLite. */
  pgCpu: number;
}

async function runSetup(name: SetupName, n: number, timeoutMs: number, relay: string): Promise<Sample> {
  const env = { SMTP_RELAY: relay };
  if (name === 'SQLite, one node') {
    const b = await startBench({ env });
    try {
      return { ...(await mailroomRun(b, n, timeoutMs, {})), pgCpu: NaN };
    } finally {
      await b.stop();
    }
  }
  const cluster = await startPgCluster(name === 'PostgreSQL, one node' ? 1 : 2, { env });
  try {
    const pg = postmasterPid(cluster.url);
    const pg0 = postgresCpuMs(pg);
    const run = await mailroomRun(
      cluster.bench,
      n,
      timeoutMs,
      {},
      {
        store: postgresEmailStore(cluster.url),
        nodes: cluster.nodes,
      },
    );
    return { ...run, pgCpu: (postgresCpuMs(pg) - pg0) / Math.max(1, run.delivered) };
  } finally {
    await cluster.stop();
  }
}

export async function endToEndPg(opts: Options): Promise<Section> {
  const id = 'end-to-end-pg';
  const title = 'end-to-end on PostgreSQL beside SQLite, one node and two';
  if (!benchPostgresAvailable()) {
    log(`${id}: skipped, PostgreSQL is not installed`);
    return skippedSection(id, title);
  }
  ensurePostfix();
  const n = opts.messages;
  const timeoutMs = Math.max(180_000, n * 60);
  const [sinkPort] = (await ports(1)) as [number];
  const sink = startSmtpSink(sinkPort);
  const samples = new Map<SetupName, Sample[]>(SETUPS.map((s) => [s, []]));
  try {
    for (let r = 0; r < opts.repeats; r++) {
      for (const name of SETUPS) {
        const x = await runSetup(name, n, timeoutMs, `127.0.0.1:${sinkPort}`);
        samples.get(name)?.push(x);
        log(
          `${id} #${r + 1} ${name}: ${x.delivered}/${n} delivered, ${fmt(x.rate)} delivered/s, p50 ${fmt(x.p50, 0)} ms, p99 ${fmt(x.p99, 0)} ms, CPU ${fmt(x.cpuPerMessage?.total ?? NaN, 2)} ms/message, PostgreSQL ${fmt(x.pgCpu, 2)} ms/message`,
        );
      }
    }
  } finally {
    await stopChild(sink);
  }
  const base = samples.get(SETUPS[0]) ?? [];
  const row = (label: string, f: (x: Sample) => number, digits: number): string =>
    `| ${label} | ${SETUPS.map((s) => fmtSpread(spread((samples.get(s) ?? []).map(f)), digits)).join(' | ')} |`;
  const ratios: Spread[] = SETUPS.map((s) =>
    spread((samples.get(s) ?? []).map((x, i) => x.rate / (base[i]?.rate ?? NaN))),
  );
  const incomplete = SETUPS.flatMap((s) =>
    (samples.get(s) ?? []).filter((x) => x.delivered < n).map(() => s),
  );
  return {
    id,
    title,
    figures: Object.fromEntries(SETUPS.map((s, i) => [s, ratios[i]!])),
    lines: [
      `${n.toLocaleString('en-US')} messages per repeat, ${opts.repeats} repeats, measured as end-to-end measures Mailroom (${CONNECTIONS} keep-alive API clients, 1 recipient, ~5 KB html, SMTP_RELAY to Postfix's \`smtp-sink\`; delivered/s from the first request to the last \`delivered_at\`; latency 202 → \`delivered_at\`). Three set-ups take turns each repeat, each started fresh: one node on SQLite, one node on PostgreSQL, and two whole nodes (api + worker + mta each, their own DATA_DIR and MTA queue) on one PostgreSQL database with the clients split between their APIs. PostgreSQL: ${postgresVersion()}, a private server started by the tests' harness (default settings, fsync on), on the same machine. Ratios are per repeat against SQLite in the same repeat. CPU per delivered message sums every Mailroom process of every node.`,
      '',
      `**On these ${os.cpus().length} cores this shows overhead, not scale**: two nodes, PostgreSQL, the sink and the load generator all share them, so a second node adds competing processes, not capacity. The figures say what the shared database costs per message; capacity grows with nodes on their own hosts (docs/scaling.md).`,
      '',
      `| figure | ${SETUPS.join(' | ')} |`,
      `|---|${SETUPS.map(() => '---').join('|')}|`,
      row('delivered/s', (x) => x.rate, 1),
      `| ratio to SQLite, one node (per repeat) | ${ratios.map((s) => fmtSpread(s, 2)).join(' | ')} |`,
      row('p50 accept→delivered (ms)', (x) => x.p50, 0),
      row('p99 accept→delivered (ms)', (x) => x.p99, 0),
      row('wall time for all N (s)', (x) => x.elapsedMs / 1000, 1),
      row(
        'Mailroom CPU per delivered message (ms, every process of every node)',
        (x) => x.cpuPerMessage?.total ?? NaN,
        2,
      ),
      row('PostgreSQL server CPU per delivered message (ms)', (x) => x.pgCpu, 2),
      '',
      incomplete.length > 0
        ? `- **not every message delivered within ${timeoutMs / 1000} s** in: ${incomplete.join(', ')}; rates count what was delivered.`
        : `- every repeat of every set-up delivered all ${n} messages.`,
    ],
  };
}

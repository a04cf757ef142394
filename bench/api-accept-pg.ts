// api-accept on PostgreSQL beside SQLite (issue 23, Bench): the api-accept load (api processes
// only, POST /v1/emails, 1 recipient, ~5 KB html) against three set-ups in turn each repeat —
// one node on SQLite, one node on PostgreSQL, two api nodes on one PostgreSQL with the clients
// spread over both — so that every ratio compares runs made minutes apart on the same machine.
import os from 'node:os';
import { sendRequest } from './api-accept';
import type { Bench, LoadResult } from './lib';
import {
  childPids,
  cpuMs,
  fmt,
  fmtSpread,
  log,
  percentile,
  runLoad,
  sortNum,
  spread,
  startBench,
} from './lib';
import type { PgCluster } from './cluster-nodes';
import { postgresCpuMs, postmasterPid, startPgCluster } from './cluster-nodes';
import { benchPostgresAvailable, postgresVersion, skippedSection } from './pg-backend';
import type { Options, Section } from './types';

interface Setup {
  readonly name: string;
  readonly bench: Bench;
  readonly baseUrls: readonly string[];
  readonly apiPids: readonly number[];
  readonly pgPid: number | undefined;
}

interface Sample {
  rate: number;
  p50: number;
  p99: number;
  apiCpu: number;
  pgCpu: number;
  failed: number;
}

async function measure(s: Setup, connections: number, durationMs: number): Promise<Sample> {
  const make = sendRequest(s.bench);
  const api0 = s.apiPids.reduce((a, p) => a + cpuMs(p), 0);
  const pg0 = postgresCpuMs(s.pgPid);
  const res: LoadResult = await runLoad({
    baseUrl: s.baseUrls[0] ?? '',
    baseUrls: s.baseUrls,
    connections,
    durationMs,
    make,
    okStatus: 202,
  });
  const ok = Math.max(1, res.ok);
  const lat = sortNum(res.latenciesMs);
  return {
    rate: res.ok / (res.elapsedMs / 1000),
    p50: percentile(lat, 50),
    p99: percentile(lat, 99),
    apiCpu: (s.apiPids.reduce((a, p) => a + cpuMs(p), 0) - api0) / ok,
    pgCpu: (postgresCpuMs(s.pgPid) - pg0) / ok,
    failed: res.failed,
  };
}

export async function apiAcceptPg(opts: Options): Promise<Section> {
  const id = 'api-accept-pg';
  const title = 'api-accept on PostgreSQL beside SQLite, one node and two';
  if (!benchPostgresAvailable()) {
    log(`${id}: skipped, PostgreSQL is not installed`);
    return skippedSection(id, title);
  }
  const connections = opts.full ? 64 : 32;
  const durationMs = opts.full ? 10_000 : 8_000;
  const started: { stop(): Promise<void> }[] = [];
  const samples = new Map<string, Sample[]>();
  try {
    const lite = await startBench({ processes: ['api'] });
    started.push(lite);
    const one: PgCluster = await startPgCluster(1, { processes: ['api'] });
    started.push(one);
    const two: PgCluster = await startPgCluster(2, { processes: ['api'] });
    started.push(two);
    const apiPid = (b: { app: Bench['app'] }): number[] => {
      const pid = childPids(b.app).api;
      return pid === undefined ? [] : [pid];
    };
    const setups: Setup[] = [
      {
        name: 'SQLite, one node',
        bench: lite,
        baseUrls: [lite.app.baseUrl],
        apiPids: apiPid(lite),
        pgPid: undefined,
      },
      {
        name: 'PostgreSQL, one node',
        bench: one.bench,
        baseUrls: [one.bench.app.baseUrl],
        apiPids: apiPid(one.bench),
        pgPid: postmasterPid(one.url),
      },
      {
        name: 'PostgreSQL, two nodes',
        bench: two.bench,
        baseUrls: two.nodes.map((n) => n.baseUrl),
        apiPids: two.nodes.flatMap((n) => apiPid({ app: n })),
        pgPid: postmasterPid(two.url),
      },
    ];
    for (const s of setups) {
      log(`${id}: warm-up ${s.name}`);
      await measure(s, connections, 2000);
    }
    for (let r = 0; r < opts.repeats; r++) {
      for (const s of setups) {
        const x = await measure(s, connections, durationMs);
        samples.set(s.name, [...(samples.get(s.name) ?? []), x]);
        log(
          `${id} #${r + 1} ${s.name}: ${fmt(x.rate)} accepted/s, p50 ${fmt(x.p50, 2)} ms, p99 ${fmt(x.p99, 2)} ms, api CPU ${fmt(x.apiCpu, 3)} ms/request, PostgreSQL CPU ${fmt(x.pgCpu, 3)} ms/request, non-202 ${x.failed}`,
        );
      }
    }
  } finally {
    for (const s of started.reverse()) await s.stop();
  }
  const names = [...samples.keys()];
  const base = samples.get(names[0] ?? '') ?? [];
  const ratio = (xs: Sample[], f: (x: Sample) => number) =>
    spread(xs.map((x, i) => f(x) / (base[i] ? f(base[i]) : NaN)));
  const col = (f: (x: Sample) => number, digits: number) =>
    names.map((n) => fmtSpread(spread((samples.get(n) ?? []).map(f)), digits));
  const rateRatios = names.map((n) => ratio(samples.get(n) ?? [], (x) => x.rate));
  const failed = names.flatMap((n) => (samples.get(n) ?? []).map((x) => x.failed)).reduce((a, x) => a + x, 0);
  const figures = Object.fromEntries(names.map((n, i) => [n, rateRatios[i]!]));
  return {
    id,
    title,
    figures,
    lines: [
      `The api-accept load (${connections} keep-alive connections, ${durationMs / 1000} s per repeat after a 2 s warm-up, ${opts.repeats} repeats; POST /v1/emails, 1 recipient, ~5 KB html; api processes only, no worker or mta) against three set-ups that run side by side and take turns each repeat: one node on SQLite (as api-accept above), one node on PostgreSQL (\`DATABASE_URL=postgres://…\`), and two api nodes on one PostgreSQL database with the connections split between them. PostgreSQL: ${postgresVersion()}, a private server started for the run by the tests' harness (test/helpers/postgres.ts: default settings, fsync on; \`MAILROOM_BENCH_PG_URL\` names another), on the same machine. Ratios are per repeat against SQLite in the same repeat.`,
      '',
      `**On these ${os.cpus().length} cores this shows overhead, not scale**: both nodes, PostgreSQL and the load generator share the same 2 cores, so a second node adds processes competing for them, not capacity. The figure that matters here is what PostgreSQL costs per request against SQLite; capacity grows with nodes on their own hosts (docs/scaling.md).`,
      '',
      `| figure | ${names.join(' | ')} |`,
      `|---|${names.map(() => '---').join('|')}|`,
      `| accepted/s | ${col((x) => x.rate, 1).join(' | ')} |`,
      `| ratio to SQLite, one node (per repeat) | ${rateRatios.map((s) => fmtSpread(s, 2)).join(' | ')} |`,
      `| p50 latency (ms) | ${col((x) => x.p50, 2).join(' | ')} |`,
      `| p99 latency (ms) | ${col((x) => x.p99, 2).join(' | ')} |`,
      `| api CPU per accepted request (ms, all api processes) | ${col((x) => x.apiCpu, 3).join(' | ')} |`,
      `| PostgreSQL server CPU per accepted request (ms, postmaster and backends) | ${col((x) => x.pgCpu, 3).join(' | ')} |`,
      '',
      failed > 0 ? `- **non-202 answers: ${failed}** (see the log)` : '- every request was answered 202.',
    ],
  };
}

// api-accept: keep-alive clients POST /v1/emails (1 recipient, ~5 KB html) for a fixed time.
// The appliance runs its api process only (no worker/mta), so the figure is the accept path
// alone: validation, auth, quota, the durable commit (WAL, synchronous=FULL) and the 202.
import fs from 'node:fs';
import path from 'node:path';
import type { Bench } from './lib';
import {
  applianceRss,
  childPids,
  cpuMs,
  fmt,
  fmtSpread,
  html5k,
  log,
  percentile,
  runLoad,
  sh,
  sleep,
  sortNum,
  spread,
  startBench,
  WORK,
} from './lib';
import { summarizeProfile } from './profile';
import type { Options, Section } from './types';

/** The api-accept request: 1 recipient, ~5 KB html (also the memory scenario's load). */
export function sendRequest(b: Bench) {
  const headers = { authorization: `Bearer ${b.apiKey}`, 'content-type': 'application/json' };
  return (seq: number) => ({
    method: 'POST',
    path: '/v1/emails',
    headers,
    body: JSON.stringify({
      from: `Shop <orders@${b.domain}>`,
      to: `buyer${seq % 1000}@dest.bench.test`,
      subject: `Your order ${seq}`,
      html: html5k(seq),
    }),
  });
}

/**
 * CPU (ms, user + system) of the api's threads from /proc/<pid>/task: the main thread
 * (its tid is the pid), the writer thread (node names worker threads `WorkerThread`;
 * src/api/api-writer.ts) and the rest (V8's compiler and GC helpers, libuv's pool).
 * A thread that ended since the last reading takes its time with it: the writer
 * thread runs throughout a load run (it ends after 30 s idle).
 */
function threadCpuMs(pid: number): { main: number; writer: number; other: number } {
  const out = { main: 0, writer: 0, other: 0 };
  let tids: string[];
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ms = (Number(rest[11]) + Number(rest[12])) * 10;
      if (tid === String(pid)) out.main += ms;
      else if (name === 'WorkerThread') out.writer += ms;
      else out.other += ms;
    } catch {
      /* ended */
    }
  }
  return out;
}

/** fsync/fdatasync calls of a process over `ms`, by strace -c (null when strace is missing). */
async function countFsyncs(pid: number, during: Promise<unknown>): Promise<number | null> {
  if (sh('which', ['strace']) === 'unknown') return null;
  const { spawn } = await import('node:child_process');
  const out = path.join(WORK, 'strace-fsync.txt');
  const child = spawn('strace', ['-f', '-c', '-e', 'trace=fsync,fdatasync', '-o', out, '-p', String(pid)], {
    stdio: 'ignore',
  });
  await sleep(300);
  await during;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGINT');
  await exited;
  const text = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '';
  let total = 0;
  for (const m of text.matchAll(/^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(fsync|fdatasync)\s*$/gm)) {
    total += Number(m[1]);
  }
  return total;
}

export async function apiAccept(opts: Options): Promise<Section> {
  const connections = opts.full ? 64 : 32;
  const durationMs = opts.full ? 10_000 : 8_000;
  const b = await startBench({ processes: ['api'] });
  const lines: string[] = [];
  const rates: number[] = [];
  const p50s: number[] = [];
  const p99s: number[] = [];
  const apiCpu: number[] = [];
  const threadCpu = { main: [] as number[], writer: [] as number[], other: [] as number[] };
  const clientCpu: number[] = [];
  const rss: Record<string, number[]> = {};
  try {
    const make = sendRequest(b);
    log(`api-accept: warm-up`);
    await runLoad({ baseUrl: b.app.baseUrl, connections, durationMs: 2000, make, okStatus: 202 });
    const apiPidForCpu = childPids(b.app).api;
    for (let r = 0; r < opts.repeats; r++) {
      const apiBefore = apiPidForCpu === undefined ? 0 : cpuMs(apiPidForCpu);
      const threadsBefore = apiPidForCpu === undefined ? undefined : threadCpuMs(apiPidForCpu);
      const clientBefore = process.cpuUsage();
      const res = await runLoad({ baseUrl: b.app.baseUrl, connections, durationMs, make, okStatus: 202 });
      const client = process.cpuUsage(clientBefore);
      if (apiPidForCpu !== undefined) apiCpu.push((cpuMs(apiPidForCpu) - apiBefore) / Math.max(1, res.ok));
      if (apiPidForCpu !== undefined && threadsBefore) {
        const after = threadCpuMs(apiPidForCpu);
        for (const k of ['main', 'writer', 'other'] as const)
          threadCpu[k].push((after[k] - threadsBefore[k]) / Math.max(1, res.ok));
      }
      clientCpu.push((client.user + client.system) / 1000 / Math.max(1, res.ok));
      const lat = sortNum(res.latenciesMs);
      const rate = res.ok / (res.elapsedMs / 1000);
      rates.push(rate);
      p50s.push(percentile(lat, 50));
      p99s.push(percentile(lat, 99));
      for (const [k, v] of Object.entries(applianceRss(b.app))) (rss[k] ??= []).push(v);
      log(
        `api-accept #${r + 1}: ${fmt(rate)} accepted/s, p50 ${fmt(percentile(lat, 50), 2)} ms, p99 ${fmt(percentile(lat, 99), 2)} ms, api CPU ${fmt(apiCpu.at(-1) ?? 0, 3)} ms/request, client CPU ${fmt(clientCpu.at(-1) ?? 0, 3)} ms/request, non-202 ${res.failed} ${JSON.stringify(res.statuses)}`,
      );
      if (res.failed > 0) lines.push(`- repeat ${r + 1}: non-202 answers ${JSON.stringify(res.statuses)}`);
    }
    // fsyncs per accepted request (strace on the api process, one extra short run).
    const apiPid = childPids(b.app).api;
    let fsyncLine = 'fsyncs per request: strace not available';
    if (apiPid !== undefined) {
      let accepted = 0;
      const run = runLoad({
        baseUrl: b.app.baseUrl,
        connections,
        durationMs: 4000,
        make,
        okStatus: 202,
      }).then((r) => (accepted = r.ok));
      const n = await countFsyncs(apiPid, run);
      if (n !== null)
        fsyncLine = `fsync+fdatasync calls per accepted request (strace -f -c on the api process, 4 s, under strace's slowdown): ${fmt(n / Math.max(1, accepted), 2)} (${n} calls / ${accepted} requests)`;
    }
    lines.push(`- ${fsyncLine}`);
  } finally {
    await b.stop();
  }

  const rate = spread(rates);
  const p99 = spread(p99s);
  const out: string[] = [
    `api process only (\`node dist/src/main.js api\`, supervisor + api; no worker or mta), ${connections} keep-alive connections (node http.Agent, client in the bench process on the same 2 cores), ${durationMs / 1000} s per repeat after a 2 s warm-up, ${opts.repeats} repeats. Each request: 1 recipient, ~5 KB html.`,
    '',
    '| figure | median (min – max) | target | verdict |',
    '|---|---|---|---|',
    `| accepted/s | ${fmtSpread(rate)} | ≥ 2,000 | ${rate.median >= 2000 ? 'met' : `missed: ${fmt(rate.median / 2000, 2)}× of target`} |`,
    `| p50 latency (ms) | ${fmtSpread(spread(p50s), 2)} | | |`,
    `| p99 latency (ms) | ${fmtSpread(p99, 2)} | < 25 | ${p99.median < 25 ? 'met' : `missed: ${fmt(p99.median / 25, 2)}× of target`} |`,
    ...(apiCpu.length > 0
      ? [`| api process CPU per accepted request (ms, user + system) | ${fmtSpread(spread(apiCpu), 3)} | | |`]
      : []),
    ...(threadCpu.main.length > 0
      ? [
          `| — of which the main thread (HTTP, auth, validation) | ${fmtSpread(spread(threadCpu.main), 3)} | | |`,
          `| — of which the writer thread (the send transaction and its commit) | ${fmtSpread(spread(threadCpu.writer), 3)} | | |`,
          `| — of which V8 and libuv helper threads | ${fmtSpread(spread(threadCpu.other), 3)} | | |`,
        ]
      : []),
    `| bench client CPU per accepted request (ms, same machine) | ${fmtSpread(spread(clientCpu), 3)} | | |`,
    ...Object.entries(rss).map(([k, v]) => `| RSS ${k} after the run (MiB) | ${fmtSpread(spread(v))} | | |`),
    '',
    ...lines,
  ];
  if (opts.profile) {
    out.push('', ...(await profileAccept(connections)));
  }
  return { id: 'api-accept', title: 'api-accept', lines: out, figures: { rate, p99 } };
}

interface SqlExec {
  count: number;
  ms: number;
  /** Since the counter started (not per run): the slowest execution. */
  maxMs?: number;
  over5?: number;
}

interface SqlStats {
  prepares: number;
  prepareMs: number;
  exec: Record<string, SqlExec>;
}

const executions = (s: SqlStats): number => Object.values(s.exec).reduce((n, e) => n + e.count, 0);

/** One process's counters by thread: `main`, or `writer` for a worker thread (the api's only one). */
type ProcessSql = Map<string, SqlStats>;

/**
 * The api process's counters (bench/sql-counter.ts writes sql-<pid>-<thread>.json per
 * thread): the process with the most statement executions over its threads (the
 * supervisor and migration runs write theirs too, and with the statement cache the api
 * prepares fewer statements than a migration run does).
 */
function readSql(dir: string): ProcessSql | null {
  const files = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  const byPid = new Map<string, ProcessSql>();
  for (const f of files) {
    const m = /^sql-(\d+)-(\d+)\.json$/.exec(f);
    if (!m) continue;
    try {
      const s = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as SqlStats;
      const threads = byPid.get(m[1] ?? '') ?? new Map<string, SqlStats>();
      byPid.set(m[1] ?? '', threads);
      // A writer thread that ended and was started again has a new threadId: its counts add up.
      const label = m[2] === '0' ? 'main' : 'writer';
      const prev = threads.get(label);
      threads.set(label, prev ? addSql(prev, s) : s);
    } catch {
      /* being written */
    }
  }
  let best: ProcessSql | null = null;
  const total = (p: ProcessSql): number => [...p.values()].reduce((n, s) => n + executions(s), 0);
  for (const p of byPid.values()) if (!best || total(p) > total(best)) best = p;
  return best;
}

function addSql(a: SqlStats, b: SqlStats): SqlStats {
  const exec = { ...a.exec };
  for (const [k, e] of Object.entries(b.exec)) {
    const x = exec[k] ?? { count: 0, ms: 0 };
    exec[k] = {
      count: x.count + e.count,
      ms: x.ms + e.ms,
      maxMs: Math.max(x.maxMs ?? 0, e.maxMs ?? 0),
      over5: (x.over5 ?? 0) + (e.over5 ?? 0),
    };
  }
  return { prepares: a.prepares + b.prepares, prepareMs: a.prepareMs + b.prepareMs, exec };
}

function sqlTable(before: ProcessSql, after: ProcessSql, requests: number, elapsedMs: number): string[] {
  const empty: SqlStats = { prepares: 0, prepareMs: 0, exec: {} };
  const rows = [...after].flatMap(([thread, a]) => {
    const b = before.get(thread) ?? empty;
    return Object.entries(a.exec).map(([sql, x]) => {
      const y = b.exec[sql] ?? { count: 0, ms: 0 };
      const over5 = (x.over5 ?? 0) - (y.over5 ?? 0);
      return { thread, sql, count: x.count - y.count, ms: x.ms - y.ms, over5, maxMs: x.maxMs ?? 0 };
    });
  });
  const shown = rows.filter((r) => r.count > 0).sort((x, y) => y.ms - x.ms);
  const execMs = shown.reduce((a, r) => a + r.ms, 0);
  const execCount = shown.reduce((a, r) => a + r.count, 0);
  let prep = 0;
  let prepMs = 0;
  for (const [thread, a] of after) {
    const b = before.get(thread) ?? empty;
    prep += a.prepares - b.prepares;
    prepMs += a.prepareMs - b.prepareMs;
  }
  const per = (x: number): string => fmt(x / Math.max(1, requests), 2);
  const threadCount = (t: string): string =>
    per(shown.filter((r) => r.thread === t).reduce((n, r) => n + r.count, 0));
  const threads = [...after.keys()].sort();
  return [
    `**SQLite statements per accepted request** (better-sqlite3 wrapped by \`bench/sql-counter.ts\`, preloaded with \`--require\` into both threads of the api; same run, ${requests} requests in ${fmt(elapsedMs / 1000)} s): ${per(execCount)} statement executions (${threads.map((t) => `${t} thread ${threadCount(t)}`).join(', ')}) and ${per(prep)} \`prepare()\` calls per request (\`withStatementCache\` in src/db/connect.ts reuses prepared statements by SQL text); time in SQLite per request (the main thread's authentication reads, the writer thread's send transaction and commit; a commit's time includes its fsync and any WAL checkpoint it ran): executing ${fmt((execMs / Math.max(1, requests)) * 1000, 0)} µs, preparing ${fmt((prepMs / Math.max(1, requests)) * 1000, 0)} µs. Wall time per request at this throughput: ${fmt((elapsedMs / Math.max(1, requests)) * 1000, 0)} µs.`,
    '',
    '| thread | statement (first 90 chars) | executions / request | µs / request | µs / execution | executions over 5 ms (slowest since start, ms) |',
    '|---|---|---|---|---|---|',
    ...shown
      .slice(0, 30)
      .map(
        (r) =>
          `| ${r.thread} | \`${r.sql.replace(/\|/g, '\\|')}\` | ${per(r.count)} | ${fmt((r.ms / Math.max(1, requests)) * 1000, 0)} | ${fmt((r.ms / r.count) * 1000, 0)} | ${r.over5 > 0 ? `${fmt((r.over5 / r.count) * 100, 1)} % (${fmt(r.maxMs, 1)})` : ''} |`,
      ),
  ];
}

/** One extra run with the api process under --cpu-prof and the SQL counter. */
async function profileAccept(connections: number): Promise<string[]> {
  const profDir = path.join(WORK, 'cpu-prof');
  fs.rmSync(profDir, { recursive: true, force: true });
  fs.mkdirSync(profDir, { recursive: true });
  const counter = path.join(__dirname, 'sql-counter.js');
  const b = await startBench({
    processes: ['api'],
    env: {
      NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profDir} --require ${counter}`,
      BENCH_SQL_COUNTER_DIR: profDir,
    },
  });
  let accepted: number;
  let sql: string[] = [];
  try {
    const make = sendRequest(b);
    await runLoad({ baseUrl: b.app.baseUrl, connections, durationMs: 1000, make, okStatus: 202 });
    await sleep(1200);
    const before = readSql(profDir);
    const res = await runLoad({ baseUrl: b.app.baseUrl, connections, durationMs: 6000, make, okStatus: 202 });
    await sleep(1200);
    const after = readSql(profDir);
    accepted = res.ok;
    if (before && after) sql = sqlTable(before, after, res.ok, res.elapsedMs);
    log(`api-accept profile run: ${fmt(res.ok / (res.elapsedMs / 1000))} accepted/s under --cpu-prof`);
  } finally {
    await b.stop();
  }
  // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: the api is the process with the biggest
  // profiles (the supervisor idles); thread 0 is its main thread, the other its writer thread.
  const profiles = fs
    .readdirSync(profDir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => ({
      f,
      pid: f.split('.')[3] ?? '',
      thread: f.split('.')[4] ?? '',
      size: fs.statSync(path.join(profDir, f)).size,
    }));
  const biggest = [...profiles].sort((a, b2) => b2.size - a.size)[0];
  if (!biggest) return [...sql, '', '_No CPU profile was written (the api process did not exit cleanly)._'];
  const ofApi = profiles
    .filter((p) => p.pid === biggest.pid)
    .sort((a, b2) => Number(a.thread) - Number(b2.thread));
  const prof = ofApi.flatMap((p, i) => {
    const lines = summarizeProfile(path.join(profDir, p.f), accepted);
    const which = i === 0 ? "the api's main thread" : "the api's writer thread";
    return [
      ...lines.map((l) => l.replace('**CPU profile of the api process**', `**CPU profile of ${which}**`)),
      '',
    ];
  });
  return [...sql, '', ...prof];
}

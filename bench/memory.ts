// memory: footprint of the whole appliance, idle and right after the api-accept load. Starts
// the full appliance (supervisor + api + worker + mta, with an account and a verified domain
// like every scenario, SMTP_RELAY to a sink in this process), waits until it is idle, samples,
// runs the api-accept load against it, and samples again as the load ends. Sums over the
// supervisor's process tree:
//   - PSS (Pss from /proc/<pid>/smaps_rollup): the targets' figure (issue 18 item 9). RSS
//     counts the pages of the node binary and shared libraries once per process; PSS splits
//     shared pages among the processes sharing them, so the PSS sum is what the box spends;
//   - RSS (VmRSS from /proc/<pid>/status), reported beside it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { sendRequest } from './api-accept';
import {
  childPids,
  fmt,
  fmtSpread,
  log,
  processName,
  processTree,
  runLoad,
  sleep,
  spread,
  startBench,
} from './lib';
import { startTimingSink } from './timing-sink';
import type { Bench } from './lib';
import type { Options, Section } from './types';

/** Same settling time as the idle figure of the end-to-end scenario. */
const IDLE_AFTER_MS = 5_000;
const MIB = 1024;
/** The api-accept scenario's load (bench/api-accept.ts): 32 connections for 8 s. */
const LOAD_CONNECTIONS = 32;
const LOAD_MS = 8_000;
/** issue 18 item 9, in MiB as /proc reports. */
export const PSS_IDLE_TARGET_MIB = 150;
export const PSS_LOAD_TARGET_MIB = 300;

function statusKiB(pid: number, field: string): number {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** Pss in KiB from smaps_rollup (0 when gone or unreadable). */
export function pssKiB(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

interface Sample {
  rss: Record<string, number>;
  anon: Record<string, number>;
  pss: Record<string, number>;
}

/** RSS and PSS in MiB per role (the mta's descendants, if any, as `haraka`) and summed over the tree. */
function sample(b: Bench): Sample {
  const sup = b.app.process.pid ?? 0;
  const kids = childPids(b.app);
  const rss: Record<string, number> = { supervisor: statusKiB(sup, 'VmRSS') / MIB };
  const anon: Record<string, number> = { supervisor: statusKiB(sup, 'RssAnon') / MIB };
  const pss: Record<string, number> = { supervisor: pssKiB(sup) / MIB };
  const sum = (pids: number[], f: (p: number) => number): number => pids.reduce((a, p) => a + f(p), 0) / MIB;
  for (const [name, pid] of Object.entries(kids)) {
    rss[name] = statusKiB(pid, 'VmRSS') / MIB;
    anon[name] = statusKiB(pid, 'RssAnon') / MIB;
    pss[name] = pssKiB(pid) / MIB;
    if (name === 'mta') {
      const below = processTree(pid).slice(1);
      if (below.length > 0) {
        rss.haraka = sum(below, (p) => statusKiB(p, 'VmRSS'));
        anon.haraka = sum(below, (p) => statusKiB(p, 'RssAnon'));
        pss.haraka = sum(below, pssKiB);
      }
    }
  }
  const tree = processTree(sup);
  rss.total = sum(tree, (p) => statusKiB(p, 'VmRSS'));
  anon.total = sum(tree, (p) => statusKiB(p, 'RssAnon'));
  pss.total = sum(tree, pssKiB);
  rss.processes = tree.length;
  return { rss, anon, pss };
}

/**
 * The baseline measured in the same run: the RSS of a node process that loads nothing (same
 * binary, same young-generation flag as the appliance's children), idle for as long as the
 * appliance. Summed RSS counts that floor once per process of the tree.
 */
async function bareNodeRss(): Promise<{ rss: number; anon: number }> {
  const child = spawn(process.execPath, ['--max-semi-space-size=2', '-e', 'setInterval(() => {}, 1000)'], {
    stdio: 'ignore',
  });
  try {
    await sleep(IDLE_AFTER_MS);
    const pid = child.pid ?? 0;
    return { rss: statusKiB(pid, 'VmRSS') / MIB, anon: statusKiB(pid, 'RssAnon') / MIB };
  } finally {
    child.kill();
  }
}

export async function memory(opts: Options): Promise<Section> {
  const rss: Record<string, number[]> = {};
  const anon: Record<string, number[]> = {};
  const pss: Record<string, number[]> = {};
  const loadRss: Record<string, number[]> = {};
  const loadPss: Record<string, number[]> = {};
  const accepted: number[] = [];
  const bare: number[] = [];
  const bareAnon: number[] = [];
  const push = (to: Record<string, number[]>, from: Record<string, number>): void => {
    for (const [k, v] of Object.entries(from)) (to[k] ??= []).push(v);
  };
  const sink = await startTimingSink();
  try {
    for (let r = 0; r < opts.repeats; r++) {
      const floor = await bareNodeRss();
      bare.push(floor.rss);
      bareAnon.push(floor.anon);
      const b = await startBench({ env: { SMTP_RELAY: sink.address } });
      try {
        await sleep(IDLE_AFTER_MS);
        const s = sample(b);
        push(rss, s.rss);
        push(anon, s.anon);
        push(pss, s.pss);
        const tree = processTree(b.app.process.pid ?? 0)
          .map((p) => `${p} ${processName(p)}`)
          .join('; ');
        log(
          `memory #${r + 1}: idle RSS total ${fmt(s.rss.total ?? NaN)} MiB, PSS total ${fmt(s.pss.total ?? NaN)} MiB (${tree})`,
        );
        const load = await runLoad({
          baseUrl: b.app.baseUrl,
          connections: LOAD_CONNECTIONS,
          durationMs: LOAD_MS,
          make: sendRequest(b),
          okStatus: 202,
        });
        const after = sample(b);
        accepted.push(load.ok);
        push(loadRss, after.rss);
        push(loadPss, after.pss);
        sink.reset();
        log(
          `memory #${r + 1}: after ${load.ok} sends in ${LOAD_MS / 1000} s: RSS total ${fmt(after.rss.total ?? NaN)} MiB, PSS total ${fmt(after.pss.total ?? NaN)} MiB`,
        );
      } finally {
        await b.stop();
      }
    }
  } finally {
    await sink.close();
  }
  const rssTotal = spread(rss.total ?? []);
  const pssTotal = spread(pss.total ?? []);
  const loadRssTotal = spread(loadRss.total ?? []);
  const loadPssTotal = spread(loadPss.total ?? []);
  const roles = Object.keys(rss).filter((k) => k !== 'total' && k !== 'processes');
  const bareRss = spread(bare);
  const processes = spread(rss.processes ?? []).median;
  const floor = spread(bare.map((x) => x * processes));
  const cells = (m: Record<string, number[]>, k: string): string => fmtSpread(spread(m[k] ?? []));
  return {
    id: 'memory-idle',
    title: 'memory (idle and after the api-accept load, standalone)',
    figures: {
      rss: rssTotal,
      pss: pssTotal,
      loadRss: loadRssTotal,
      loadPss: loadPssTotal,
      bare: bareRss,
      floor,
    },
    lines: [
      `A fresh appliance (\`node dist/src/main.js\`: supervisor, api, worker, mta; SMTP_RELAY to a sink in the bench process) with an account and a verified domain, measured ${IDLE_AFTER_MS / 1000} s after it is ready with no load (idle), then right after the api-accept load (${LOAD_CONNECTIONS} connections POST /v1/emails for ${LOAD_MS / 1000} s; ${fmtSpread(spread(accepted), 0)} sends accepted, the worker and mta delivering them meanwhile). ${opts.repeats} repeats. **PSS** = \`Pss\` from \`/proc/<pid>/smaps_rollup\`, summed over the supervisor's process tree — the targets' figure: shared pages (the node binary's, shared libraries') divided among the processes that map them. **RSS** = VmRSS from \`/proc/<pid>/status\`, which counts them once per process. The rest of RSS beyond the anonymous part is file-backed (mostly the node binary's own pages, ~35 MiB in every node process).`,
      '',
      '| process | idle PSS (MiB) | idle RSS (MiB) | of which anonymous (MiB) | PSS after load (MiB) | RSS after load (MiB) |',
      '|---|---|---|---|---|---|',
      ...roles.map(
        (k) =>
          `| ${k} | ${cells(pss, k)} | ${cells(rss, k)} | ${cells(anon, k)} | ${cells(loadPss, k)} | ${cells(loadRss, k)} |`,
      ),
      `| **total** | ${fmtSpread(pssTotal)} | ${fmtSpread(rssTotal)} | ${cells(anon, 'total')} | ${fmtSpread(loadPssTotal)} | ${fmtSpread(loadRssTotal)} |`,
      '',
      `- processes in the tree: ${fmtSpread(spread(rss.processes ?? []), 0)}`,
      `- idle PSS total: ${fmtSpread(pssTotal)} MiB — target ≤ ${PSS_IDLE_TARGET_MIB} MiB: ${pssTotal.median <= PSS_IDLE_TARGET_MIB ? 'met' : 'missed'}`,
      `- PSS total right after the load: ${fmtSpread(loadPssTotal)} MiB — target ≤ ${PSS_LOAD_TARGET_MIB} MiB: ${loadPssTotal.median <= PSS_LOAD_TARGET_MIB ? 'met' : 'missed'}`,
      `- RSS totals (each process counting the shared pages): idle ${fmtSpread(rssTotal)} MiB, after the load ${fmtSpread(loadRssTotal)} MiB`,
      `- baseline, same run: a bare node process (\`node --max-semi-space-size=2 -e 'setInterval(() => {}, 1000)'\`, same binary, idle ${IDLE_AFTER_MS / 1000} s) has RSS ${fmtSpread(bareRss)} MiB, of which anonymous ${fmtSpread(spread(bareAnon))} MiB; ${fmt(processes, 0)} such processes: ${fmtSpread(floor)} MiB of summed RSS before any of our code loads.`,
    ],
  };
}

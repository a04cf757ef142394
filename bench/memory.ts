// memory: idle footprint of the whole appliance without the end-to-end load. Starts the full
// appliance (supervisor + api + worker + mta, with an account and a verified domain like every
// scenario), waits until it is idle, and sums over the supervisor's process tree:
//   - RSS (VmRSS from /proc/<pid>/status): the figure, the target is judged on it;
//   - PSS (Pss from /proc/<pid>/smaps_rollup): a second figure only. RSS counts the pages of
//     the node binary and shared libraries once per process; PSS splits shared pages among
//     the processes sharing them, so the PSS sum is closer to what the box really spends.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { childPids, fmt, fmtSpread, log, processName, processTree, sleep, spread, startBench } from './lib';
import type { Bench } from './lib';
import type { Options, Section } from './types';

/** Same settling time as the idle figure of the end-to-end scenario. */
const IDLE_AFTER_MS = 5_000;
const MIB = 1024;

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
  const bare: number[] = [];
  const bareAnon: number[] = [];
  for (let r = 0; r < opts.repeats; r++) {
    const floor = await bareNodeRss();
    bare.push(floor.rss);
    bareAnon.push(floor.anon);
    const b = await startBench({});
    try {
      await sleep(IDLE_AFTER_MS);
      const s = sample(b);
      for (const [k, v] of Object.entries(s.rss)) (rss[k] ??= []).push(v);
      for (const [k, v] of Object.entries(s.anon)) (anon[k] ??= []).push(v);
      for (const [k, v] of Object.entries(s.pss)) (pss[k] ??= []).push(v);
      const tree = processTree(b.app.process.pid ?? 0)
        .map((p) => `${p} ${processName(p)}`)
        .join('; ');
      log(
        `memory #${r + 1}: idle RSS total ${fmt(s.rss.total ?? NaN)} MiB, PSS total ${fmt(s.pss.total ?? NaN)} MiB (${tree})`,
      );
    } finally {
      await b.stop();
    }
  }
  const rssTotal = spread(rss.total ?? []);
  const pssTotal = spread(pss.total ?? []);
  const roles = Object.keys(rss).filter((k) => k !== 'total' && k !== 'processes');
  const bareRss = spread(bare);
  const processes = spread(rss.processes ?? []).median;
  const floor = spread(bare.map((x) => x * processes));
  return {
    id: 'memory-idle',
    title: 'memory (idle, standalone)',
    figures: { rss: rssTotal, pss: pssTotal, bare: bareRss, floor },
    lines: [
      `A fresh appliance (\`node dist/src/main.js\`: supervisor, api, worker, mta) with an account and a verified domain, measured ${IDLE_AFTER_MS / 1000} s after it is ready, no load. ${opts.repeats} repeats. **RSS** = VmRSS from \`/proc/<pid>/status\`, summed over the supervisor's process tree — the issue's figure. **PSS** = \`Pss\` from \`/proc/<pid>/smaps_rollup\`, a second figure only: RSS counts the node binary's and shared libraries' pages once per process, PSS divides shared pages among the processes that map them. The rest of RSS beyond the anonymous part is file-backed (mostly the node binary's own pages, ~35 MiB in every node process).`,
      '',
      '| process | idle RSS (MiB) | of which anonymous (MiB) | idle PSS (MiB) |',
      '|---|---|---|---|',
      ...roles.map(
        (k) =>
          `| ${k} | ${fmtSpread(spread(rss[k] ?? []))} | ${fmtSpread(spread(anon[k] ?? []))} | ${fmtSpread(spread(pss[k] ?? []))} |`,
      ),
      `| **total** | ${fmtSpread(rssTotal)} | ${fmtSpread(spread(anon.total ?? []))} | ${fmtSpread(pssTotal)} |`,
      '',
      `- processes in the tree: ${fmtSpread(spread(rss.processes ?? []), 0)}`,
      `- idle RSS total: ${fmtSpread(rssTotal)} MiB — target < 250 MB (238.4 MiB): ${rssTotal.median * 1.048576 < 250 ? 'met' : 'missed'}`,
      `- baseline, same run: a bare node process (\`node --max-semi-space-size=2 -e 'setInterval(() => {}, 1000)'\`, same binary, idle ${IDLE_AFTER_MS / 1000} s) has RSS ${fmtSpread(bareRss)} MiB, of which anonymous ${fmtSpread(spread(bareAnon))} MiB; ${fmt(processes, 0)} such processes alone: ${fmtSpread(floor)} MiB (${fmt(floor.median / 238.4, 2)}× of the target) — the floor of the summed figure before any of our code loads.`,
    ],
  };
}

// Reads a V8 .cpuprofile and says where the time went: self time by category (package,
// our source folder, native calls, GC, idle) and the top functions, per accepted request.
import fs from 'node:fs';
import { fmt } from './lib';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

function category(url: string, fn: string): string {
  if (url.includes('sql-counter'))
    return 'SQLite statement execution (native, timed by bench/sql-counter.js; includes the commit fsync)';
  if (url === '') {
    if (fn.startsWith('(')) return fn; // (garbage collector), (idle), (program)
    return `native: ${fn || '(anonymous)'}`;
  }
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return `pkg ${nm[1]}`;
  if (url.startsWith('node:')) return `node ${url.slice(5).split('/')[0]}`;
  const src = /\/dist\/(src\/[^/]+(?:\/[^/]+)?)\//.exec(url);
  if (src) return src[1] ?? url;
  return url.replace(/^.*\/dist\//, '');
}

export function summarizeProfile(file: string, requests: number): string[] {
  const p = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  for (let i = 0; i < p.samples.length; i++) {
    const id = p.samples[i] ?? 0;
    selfUs.set(id, (selfUs.get(id) ?? 0) + (p.timeDeltas[i] ?? 0));
  }
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const cats = new Map<string, number>();
  const fns = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const n = byId.get(id);
    if (!n) continue;
    const { functionName, url, lineNumber } = n.callFrame;
    const c = category(url, functionName);
    cats.set(c, (cats.get(c) ?? 0) + us);
    const where = url ? `${url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${lineNumber + 1}` : 'native';
    const key = `${functionName || '(anonymous)'} — ${where}`;
    fns.set(key, (fns.get(key) ?? 0) + us);
  }
  const busy = total - (cats.get('(idle)') ?? 0);
  const rows = (m: Map<string, number>, n: number): string[] =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(
        ([k, us]) =>
          `| ${k.replace(/\|/g, '\\|')} | ${fmt(us / 1000, 0)} | ${fmt((us / total) * 100, 1)} % | ${fmt(us / Math.max(1, requests), 1)} |`,
      );
  return [
    `**CPU profile of the api process** (\`node --cpu-prof\`, 6 s at the same concurrency, ${requests} requests accepted; sampling includes time blocked in native calls such as SQLite's fsync). Wall ${fmt((p.endTime - p.startTime) / 1000, 0)} ms, busy (not idle) ${fmt(busy / 1000, 0)} ms = ${fmt(busy / Math.max(1, requests), 1)} µs per request.`,
    '',
    '| self time by category | ms | share | µs / request |',
    '|---|---|---|---|',
    ...rows(cats, 18),
    '',
    '| self time by function | ms | share | µs / request |',
    '|---|---|---|---|',
    ...rows(fns, 25),
  ];
}

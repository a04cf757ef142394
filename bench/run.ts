// The benchmark runner: `node dist/bench/run.js [--only a,b] [--full] [--repeats N] [--no-profile]`.
// Runs the scenarios against Postfix baselines on 127.0.0.1 and writes bench/RESULTS.md (a run
// of every scenario) or bench/.work/RESULTS-<names>.md (a partial run).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { apiAccept } from './api-accept';
import { apiAcceptPg } from './api-accept-pg';
import { dashboardList } from './dashboard-list';
import { dashboardLoad } from './dashboard-load';
import { endToEnd } from './end-to-end';
import { endToEndPg } from './end-to-end-pg';
import { inbound } from './inbound';
import { latency } from './latency';
import { limitsSection } from './limits';
import { cpuProbeMs, fmt, log, machineInfo, REPO, WORK } from './lib';
import { memory } from './memory';
import { scale } from './scale';
import type { Options, Section } from './types';

const ALL = [
  'api-accept',
  'end-to-end',
  'memory',
  'latency',
  'inbound',
  'scale',
  'dashboard-list',
  'dashboard-load',
  // Issue 23: PostgreSQL beside SQLite, one node and two (skipped when PostgreSQL is not installed).
  'api-accept-pg',
  'end-to-end-pg',
] as const;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      full: { type: 'boolean', default: false },
      repeats: { type: 'string', default: '3' },
      'no-profile': { type: 'boolean', default: false },
      'scale-sizes': { type: 'string' },
      messages: { type: 'string' },
    },
  });
  const only = values.only ? values.only.split(',') : [...ALL];
  for (const o of only) if (!(ALL as readonly string[]).includes(o)) throw new Error(`unknown scenario ${o}`);
  const opts: Options = {
    full: values.full ?? false,
    repeats: Math.max(1, Number(values.repeats)),
    profile: !(values['no-profile'] ?? false),
    messages: Number(values.messages ?? ((values.full ?? false) ? 10_000 : 500)),
    scaleSizes: (values['scale-sizes'] ?? '10000,100000,1000000').split(',').map(Number),
  };
  fs.mkdirSync(WORK, { recursive: true });
  fs.writeFileSync(path.join(WORK, '.gitignore'), '*\n');
  const machine = machineInfo();
  const started = Date.now();
  const sections: Section[] = [];
  const failures: string[] = [];
  const attempt = async (name: string, fn: () => Promise<Section[]>): Promise<void> => {
    if (!only.includes(name)) return;
    log(`scenario ${name}`);
    try {
      sections.push(...(await fn()));
    } catch (e) {
      const msg = e instanceof Error ? (e.stack ?? e.message) : String(e);
      log(`scenario ${name} failed: ${msg}`);
      failures.push(name);
      sections.push({
        id: name,
        title: name,
        lines: ['**Failed to run:**', '', '```', msg.slice(0, 2000), '```'],
        figures: {},
      });
    }
  };
  await attempt('api-accept', async () => [await apiAccept(opts)]);
  await attempt('end-to-end', async () => {
    const r = await endToEnd(opts);
    return [r.e2e, r.memory];
  });
  await attempt('memory', async () => [await memory(opts)]);
  await attempt('latency', async () => [await latency(opts)]);
  await attempt('inbound', async () => [await inbound(opts)]);
  await attempt('scale', async () => [await scale(opts)]);
  await attempt('dashboard-list', async () => [await dashboardList(opts)]);
  await attempt('dashboard-load', async () => [await dashboardLoad(opts)]);
  await attempt('api-accept-pg', async () => [await apiAcceptPg(opts)]);
  await attempt('end-to-end-pg', async () => [await endToEndPg(opts)]);

  // The closing section judges issue 11's targets: only when more than one of their scenarios ran.
  if (only.filter((o) => !o.endsWith('-pg')).length > 1) sections.push(limitsSection(sections));
  const minutes = (Date.now() - started) / 60_000;
  machine['CPU probe at end (ms)'] = fmt(cpuProbeMs(), 0);
  machine['Load average at end'] = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
  const out = [
    '# Benchmark results',
    '',
    `Written by \`npm run bench\` (\`node dist/bench/run.js ${process.argv.slice(2).join(' ')}\`) on ${new Date().toISOString()}; the run took ${fmt(minutes)} min. Every figure is the median (min – max) over ${opts.repeats} repeats${opts.full ? '' : '; the default run uses reduced sizes where noted (`npm run bench -- --full` for the issue’s sizes)'}. Ratios are taken per repeat against the baseline measured in the same run. The machine is shared and noisy, and the load generators run on the same ${os.cpus().length} cores as the system under test. See bench/README.md.`,
    '',
    '## Machine',
    '',
    '| | |',
    '|---|---|',
    ...Object.entries(machine).map(([k, v]) => `| ${k} | ${v} |`),
    '',
    ...sections.flatMap((s) => [`## ${s.title}`, '', ...s.lines, '']),
  ];
  const file =
    only.length === ALL.length
      ? path.join(REPO, 'bench', 'RESULTS.md')
      : path.join(WORK, `RESULTS-${only.join('+')}.md`);
  fs.writeFileSync(file, out.join('\n'));
  log(`wrote ${file}`);
  if (failures.length) process.exitCode = 1;
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});

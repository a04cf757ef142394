import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

// A child process of its own: `--expose-gc` and the young generation's size are process flags.
const IDLE_GC = path.join(__dirname, '..', '..', '..', 'src', 'shared', 'idle-gc.js');
const LOGGER = path.join(__dirname, '..', '..', '..', 'src', 'shared', 'logger.js');

/** Grows the young generation as a burst of requests would, then goes quiet and reports. */
const SCRIPT = `
const v8 = require('node:v8');
const { collectWhenIdle } = require(${JSON.stringify(IDLE_GC)});
const { createLogger } = require(${JSON.stringify(LOGGER)});
const newSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').physical_space_size;
let keep = [];
for (let i = 0; i < 300000; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 50000) keep = keep.slice(25000); }
keep = null;
const before = newSpace();
collectWhenIdle(createLogger({ level: 'debug', process: 'test' }), { intervalMs: 50 });
setTimeout(() => process.stderr.write(JSON.stringify({ before, after: newSpace() })), 1000);
`;

function run(flags: string[]): { before: number; after: number; stdout: string } {
  const child = spawnSync(process.execPath, [...flags, '-e', SCRIPT], { encoding: 'utf8' });
  assert.equal(child.status, 0, child.stderr);
  return { ...(JSON.parse(child.stderr) as { before: number; after: number }), stdout: child.stdout };
}

test('a process that went quiet gives its grown young generation back, once', () => {
  const r = run(['--expose-gc', '--max-semi-space-size=8']);
  assert.ok(r.before >= 8 * 1024 * 1024, `the burst grew the young generation (${r.before} bytes)`);
  assert.ok(r.after <= r.before / 4, `shrunk from ${r.before} to ${r.after} bytes`);
  const released = r.stdout.split('\n').filter((l) => l.includes('"memory_released"'));
  assert.equal(released.length, 1, r.stdout);
});

test('without --expose-gc it does nothing (a process started outside the supervisor)', () => {
  const r = run(['--max-semi-space-size=8']);
  assert.ok(r.after >= r.before / 2, `left as it was: ${r.before} -> ${r.after} bytes`);
  assert.doesNotMatch(r.stdout, /memory_released/);
});

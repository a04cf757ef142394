// `npm start`'s prestart: builds only when a build input changed since the last build
// this script ran, so a second start takes the time of starting, not of compiling
// (measured in docs/getting-started.md). The build stays a clean one (dist/ removed
// first): a source deleted since cannot leave its compiled file behind. `npm test` and
// the Dockerfile call `npm run build` directly and always rebuild.
//
// "Changed" is a fingerprint of the inputs, not their newest mtime: the list of input
// files with each one's size and mtime, hashed and kept in dist/.build-stamp. Build
// outputs (dist/, web/dist/) are not inputs, and directories' own mtimes are not read:
// writing web/dist/ moves web/'s mtime, which once made every second start rebuild.
// A deleted or added source changes the list; an edited one its mtime or size.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const stamp = path.join(root, 'dist', '.build-stamp');
// Everything the build reads. A path that does not exist is skipped.
const INPUTS = [
  'src',
  'plugins',
  'test',
  'bench',
  'web',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
];
const SKIP = new Set(['node_modules', 'dist', '.work']);
// The steps of `npm run build`, in its order, each an npm script of package.json.
const STEPS = [
  ['build:clean', 'removing dist/'],
  ['build:ts', 'compiling the TypeScript into dist/'],
  ['build:web', 'building the dashboard into web/dist/'],
];

/** Appends `relative size mtime` for each file under `p` (sorted), nothing when it does not exist. */
function collect(p, relative, lines) {
  let stat;
  try {
    stat = fs.statSync(p);
  } catch {
    return;
  }
  if (!stat.isDirectory()) {
    lines.push(`${relative} ${stat.size} ${stat.mtimeMs}`);
    return;
  }
  for (const entry of fs.readdirSync(p).sort()) {
    if (!SKIP.has(entry)) collect(path.join(p, entry), `${relative}/${entry}`, lines);
  }
}

function fingerprint() {
  const lines = [];
  for (const input of INPUTS) collect(path.join(root, input), input, lines);
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}

function stamped() {
  try {
    if (!fs.existsSync(path.join(root, 'dist', 'src', 'main.js'))) return undefined;
    return fs.readFileSync(stamp, 'utf8').trim();
  } catch {
    return undefined;
  }
}

// Taken before the build: a file edited while it runs makes the next start build again.
const inputs = fingerprint();
const previous = stamped();
if (previous === inputs) {
  process.stderr.write('build: dist/ is up to date (no build input changed): not rebuilding\n');
  process.exit(0);
}
process.stderr.write(
  previous === undefined
    ? 'build: no previous build in dist/: building\n'
    : 'build: a build input changed since the last build: rebuilding\n',
);
const npm = process.env.npm_execpath;
for (const [index, [script, what]] of STEPS.entries()) {
  process.stderr.write(`build: step ${index + 1}/${STEPS.length}: ${what} (npm run ${script})\n`);
  const started = Date.now();
  const run = npm
    ? spawnSync(process.execPath, [npm, 'run', '--silent', script], { cwd: root, stdio: 'inherit' })
    : spawnSync('npm', ['run', '--silent', script], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) {
    process.stderr.write(`build: step ${index + 1}/${STEPS.length} failed (npm run ${script})\n`);
    process.exit(run.status ?? 1);
  }
  process.stderr.write(
    `build: step ${index + 1}/${STEPS.length} done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
}
fs.writeFileSync(stamp, `${inputs}\n`);
process.stderr.write('build: done\n');

// `npm start`'s prestart (issue 21 item 3): runs `npm run build` only when a build
// input changed since the last build this script ran, so a second start takes the
// time of starting, not of compiling (measured in docs/getting-started.md). The
// build stays a clean one (dist/ removed first): a source deleted since cannot leave
// its compiled file behind. `npm test` and the Dockerfile call `npm run build`
// directly and always rebuild.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const stamp = path.join(root, 'dist', '.build-stamp');
// Everything the build reads. A directory that does not exist (web/ before it lands) is skipped.
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

/** The newest modification time (ms) under `p`, 0 when it does not exist. */
function newest(p) {
  let stat;
  try {
    stat = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs; // a deleted file changes its directory's mtime
  for (const entry of fs.readdirSync(p)) {
    if (!SKIP.has(entry)) latest = Math.max(latest, newest(path.join(p, entry)));
  }
  return latest;
}

function stampTime() {
  try {
    if (!fs.existsSync(path.join(root, 'dist', 'src', 'main.js'))) return -1;
    return fs.statSync(stamp).mtimeMs;
  } catch {
    return -1;
  }
}

const inputs = Math.max(...INPUTS.map((p) => newest(path.join(root, p))));
if (stampTime() >= inputs) {
  process.stderr.write('dist/ is up to date (no build input changed): not rebuilding\n');
  process.exit(0);
}
const startedAt = new Date();
const npm = process.env.npm_execpath;
const build = npm
  ? spawnSync(process.execPath, [npm, 'run', '--silent', 'build'], { cwd: root, stdio: 'inherit' })
  : spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
// Stamped with the time the build started (a file edited during the build is newer),
// or with the newest input's when that is later (a file dated in the future, e.g.
// unpacked from an archive made on a host whose clock is ahead, would otherwise
// force a build at every start).
const stampAt = new Date(Math.max(startedAt.getTime(), inputs));
fs.writeFileSync(stamp, '');
fs.utimesSync(stamp, stampAt, stampAt);

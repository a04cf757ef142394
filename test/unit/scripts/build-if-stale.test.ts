import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';

// dist/test/unit/scripts → the repository root.
const SCRIPT = path.resolve(__dirname, '../../../../scripts/build-if-stale.mjs');
const root = fs.mkdtempSync(path.join(tmpdir(), 'mailroom-build-stale-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

// A stand-in project: its `build` (clean, like ours) counts its runs and writes dist/src/main.js.
const BUILD = [
  "const fs = require('fs');",
  "fs.rmSync('dist', { recursive: true, force: true });",
  "fs.mkdirSync('dist/src', { recursive: true });",
  "fs.writeFileSync('dist/src/main.js', '');",
  "fs.appendFileSync('builds.txt', 'x');",
].join(' ');
fs.mkdirSync(path.join(root, 'scripts'));
fs.copyFileSync(SCRIPT, path.join(root, 'scripts', 'build-if-stale.mjs'));
fs.writeFileSync(
  path.join(root, 'package.json'),
  JSON.stringify({ name: 'fixture', private: true, scripts: { build: `node -e "${BUILD}"` } }),
);
fs.mkdirSync(path.join(root, 'src'));
fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'export const a = 1;\n');

function start(): { builds: number; stderr: string } {
  const run = spawnSync(process.execPath, [path.join(root, 'scripts', 'build-if-stale.mjs')], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  const builds = fs.existsSync(path.join(root, 'builds.txt'))
    ? fs.readFileSync(path.join(root, 'builds.txt'), 'utf8').length
    : 0;
  return { builds, stderr: run.stderr };
}

describe('scripts/build-if-stale.mjs (npm start without a rebuild every time, issue 21 item 3)', () => {
  it('builds once, skips while nothing changed, rebuilds after a change or without dist/', () => {
    assert.equal(start().builds, 1);
    const second = start();
    assert.equal(second.builds, 1);
    assert.match(second.stderr, /dist\/ is up to date/);
    // A source edited after the build (a second later than the stamp, whatever the clock's resolution).
    const later = new Date(Date.now() + 2_000);
    fs.utimesSync(path.join(root, 'src', 'a.ts'), later, later);
    assert.equal(start().builds, 2);
    assert.equal(start().builds, 2);
    // A deleted source changes its directory: rebuilt, so its compiled file goes too.
    fs.rmSync(path.join(root, 'src', 'a.ts'));
    const dirLater = new Date(Date.now() + 4_000);
    fs.utimesSync(path.join(root, 'src'), dirLater, dirLater);
    assert.equal(start().builds, 3);
    fs.rmSync(path.join(root, 'dist'), { recursive: true });
    assert.equal(start().builds, 4);
  });
});

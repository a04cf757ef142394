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

// A stand-in project with our build's three steps: the clean (like ours) counts the builds, the
// TypeScript step writes dist/src/main.js, the dashboard step writes web/dist/ (which moves web/'s mtime).
const CLEAN =
  "const fs = require('fs'); fs.rmSync('dist', { recursive: true, force: true }); fs.appendFileSync('builds.txt', 'x');";
const TS =
  "const fs = require('fs'); fs.mkdirSync('dist/src', { recursive: true }); fs.writeFileSync('dist/src/main.js', '');";
const WEB =
  "const fs = require('fs'); fs.rmSync('web/dist', { recursive: true, force: true }); fs.mkdirSync('web/dist/assets', { recursive: true }); fs.writeFileSync('web/dist/index.html', String(Date.now()));";
fs.mkdirSync(path.join(root, 'scripts'));
fs.copyFileSync(SCRIPT, path.join(root, 'scripts', 'build-if-stale.mjs'));
fs.writeFileSync(
  path.join(root, 'package.json'),
  JSON.stringify({
    name: 'fixture',
    private: true,
    scripts: {
      'build:clean': `node -e "${CLEAN}"`,
      'build:ts': `node -e "${TS}"`,
      'build:web': `node -e "${WEB}"`,
    },
  }),
);
fs.mkdirSync(path.join(root, 'web', 'src'), { recursive: true });
fs.writeFileSync(path.join(root, 'web', 'src', 'main.tsx'), 'export {};\n');
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

describe('scripts/build-if-stale.mjs (npm start without a rebuild every time)', () => {
  it('builds once, printing each step, skips while nothing changed, rebuilds after a change or without dist/', () => {
    const first = start();
    assert.equal(first.builds, 1);
    assert.match(first.stderr, /no previous build/);
    assert.match(first.stderr, /step 1\/3: removing dist\//);
    assert.match(first.stderr, /step 2\/3: compiling the TypeScript/);
    assert.match(first.stderr, /step 3\/3: building the dashboard into web\/dist\//);
    assert.match(first.stderr, /build: done/);
    // The build wrote web/dist/, so web/'s own mtime is now later than every source: not a change.
    const second = start();
    assert.equal(second.builds, 1);
    assert.match(second.stderr, /dist\/ is up to date/);
    // Writing web/dist/ again (as a lone `npm run build:web` would) is not a source change either.
    const outputLater = new Date(Date.now() + 2_000);
    fs.writeFileSync(path.join(root, 'web', 'dist', 'index.html'), 'rebuilt');
    fs.utimesSync(path.join(root, 'web', 'dist'), outputLater, outputLater);
    fs.utimesSync(path.join(root, 'web'), outputLater, outputLater);
    assert.equal(start().builds, 1);
    // A source edited after the build (its mtime moves, whatever the clock's resolution).
    const later = new Date(Date.now() + 2_000);
    fs.utimesSync(path.join(root, 'src', 'a.ts'), later, later);
    const edited = start();
    assert.equal(edited.builds, 2);
    assert.match(edited.stderr, /a build input changed/);
    assert.equal(start().builds, 2);
    // A dashboard source touched: rebuilt.
    const webLater = new Date(Date.now() + 4_000);
    fs.utimesSync(path.join(root, 'web', 'src', 'main.tsx'), webLater, webLater);
    assert.equal(start().builds, 3);
    assert.equal(start().builds, 3);
    // A deleted source: rebuilt, so its compiled file goes too.
    fs.rmSync(path.join(root, 'src', 'a.ts'));
    assert.equal(start().builds, 4);
    // A new source: rebuilt.
    fs.writeFileSync(path.join(root, 'src', 'b.ts'), 'export const b = 2;\n');
    assert.equal(start().builds, 5);
    fs.rmSync(path.join(root, 'dist'), { recursive: true });
    assert.equal(start().builds, 6);
  });
});

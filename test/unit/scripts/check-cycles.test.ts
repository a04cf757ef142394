import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';

// dist/test/unit/scripts → the repository root.
const SCRIPT = path.resolve(__dirname, '../../../../scripts/check-cycles.mjs');
const root = mkdtempSync(path.join(tmpdir(), 'mailroom-cycles-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** Writes `files` (relative path → source) into a fresh fixture folder and runs the check on it. */
function check(name: string, files: Record<string, string>): { status: number | null; stderr: string } {
  const dir = path.join(root, name);
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), source);
  }
  const run = spawnSync(process.execPath, [SCRIPT, dir], { encoding: 'utf8' });
  return { status: run.status, stderr: run.stderr };
}

describe('scripts/check-cycles.mjs', () => {
  it('passes a graph without a loop', () => {
    const r = check('acyclic', {
      'a.ts': "import { b } from './b';\nexport const a = b;\n",
      'b.ts': "import { c } from './lib';\nexport const b = c;\n",
      'lib/index.ts': "import { readFileSync } from 'node:fs';\nexport const c = readFileSync;\n",
    });
    assert.equal(r.status, 0, r.stderr);
  });

  it('fails on a loop across folders and names its files', () => {
    const r = check('loop', {
      'x/a.ts': "import { b } from '../y/b';\nexport const a = () => b;\n",
      'y/b.ts': "import { c } from './c';\nexport const b = () => c;\n",
      'y/c.ts': "export { a as c } from '../x/a';\n",
    });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /import cycle: .*x\/a\.ts.*y\/b\.ts.*y\/c\.ts/);
  });

  it('counts a type-only import: a loop of types is still a loop', () => {
    const r = check('type-loop', {
      'a.ts': "import type { B } from './b';\nexport interface A { b?: B }\n",
      'b.ts': "import type { A } from './a';\nexport interface B { a?: A }\n",
    });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /1 import cycle/);
  });

  it('fails when two modules import each other without any loop of files, naming an import each way', () => {
    const r = check('module-loop', {
      'modules/billing/invoice.ts': "import { plan } from '../plans/plan';\nexport const invoice = plan;\n",
      'modules/plans/plan.ts': 'export const plan = 1;\n',
      'modules/plans/discount.ts':
        "import { invoice } from '../billing/invoice';\nexport const discount = invoice;\n",
    });
    assert.equal(r.status, 1);
    assert.doesNotMatch(r.stderr, /import cycle/);
    assert.match(r.stderr, /module cycle: (billing ↔ plans|plans ↔ billing)/);
    assert.match(r.stderr, /modules\/billing\/invoice\.ts → .*modules\/plans\/plan\.ts/);
    assert.match(r.stderr, /modules\/plans\/discount\.ts → .*modules\/billing\/invoice\.ts/);
  });

  it('passes modules that import one way only', () => {
    const r = check('module-one-way', {
      'modules/billing/invoice.ts': "import { plan } from '../plans/plan';\nexport const invoice = plan;\n",
      'modules/plans/plan.ts': "import { clock } from '../../shared/clock';\nexport const plan = clock;\n",
      'shared/clock.ts': 'export const clock = 1;\n',
    });
    assert.equal(r.status, 0, r.stderr);
  });
});

// Issue 17 finding 2 as a class: no pattern with nested or adjacent unbounded quantifiers may run
// over attacker text. The lint rules reject those shapes in src/ and plugins/; this file checks
// that they stay enabled, and times the API-input parser the audit found cubic.
import assert from 'node:assert/strict';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';
import { parseMailbox } from '../../src/mail/address';
import { normaliseAddress } from '../../src/modules/bounces/email-address';

const ROOT = path.join(__dirname, '../../..');
const BOUND_MS = 100;

function timed<T>(work: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = work();
  return { value, ms: performance.now() - started };
}

describe('regexes over attacker text stay linear (issue 17 finding 2)', () => {
  it('the super-linear regex rules are errors for src/ and plugins/', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    for (const file of ['src/modules/bounces/smtp-command.ts', 'plugins/smtp-reply.ts']) {
      const config = (await eslint.calculateConfigForFile(path.join(ROOT, file))) as {
        rules: Record<string, unknown>;
      };
      for (const rule of ['regexp/no-super-linear-backtracking', 'regexp/no-super-linear-move']) {
        const setting = config.rules[rule];
        const severity = Array.isArray(setting) ? (setting[0] as unknown) : setting;
        assert.ok(severity === 2 || severity === 'error', `${rule} is not an error for ${file}`);
      }
    }
  });

  it('a From of 5,000 spaces without "<" is refused at once (was cubic: 4,000 took 23 s)', () => {
    const { value, ms } = timed(() => parseMailbox(`${' '.repeat(5_000)}x`));
    assert.equal(value, undefined);
    assert.ok(ms < BOUND_MS, `parseMailbox took ${ms.toFixed(1)} ms`);
  });

  it('display names still parse, blanks trimmed', () => {
    assert.deepEqual(parseMailbox('  Jane Doe   <jane@a.example> '), {
      address: 'jane@a.example',
      localPart: 'jane',
      domain: 'a.example',
      name: 'Jane Doe',
    });
    assert.equal(parseMailbox(' "Doe, Jane" <jane@a.example>')?.name, 'Doe, Jane');
  });

  it('address clean-up of a report is linear in long quote and dot runs', () => {
    const { value, ms } = timed(() =>
      normaliseAddress(`a${"'".repeat(100_000)}b@far.example${'.'.repeat(100_000)}x`),
    );
    assert.ok(value.startsWith('a'));
    assert.ok(ms < BOUND_MS, `normaliseAddress took ${ms.toFixed(1)} ms`);
  });
});

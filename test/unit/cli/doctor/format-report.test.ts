import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CheckResult } from '../../../../src/cli/doctor/check-result';
import { worst } from '../../../../src/cli/doctor/check-result';
import { buildReport } from '../../../../src/cli/doctor/doctor-report';
import { formatReport } from '../../../../src/cli/doctor/format-report';

describe('doctor: report', () => {
  it('formats a report and fails only on failures', () => {
    const checks: CheckResult[] = [
      { id: 'a', title: 'Alpha', status: 'ok', summary: 'fine', hints: [] },
      { id: 'b', title: 'Beta', status: 'warn', summary: 'hmm', hints: ['do this'] },
    ];
    const warnOnly = buildReport('/data', checks, Date.UTC(2025, 0, 2));
    assert.equal(warnOnly.exitCode, 0);
    const text = formatReport(warnOnly);
    assert.match(text, /^Mailroom doctor, 2025-01-02T00:00:00\.000Z \(DATA_DIR \/data\)/);
    assert.ok(text.includes('\n  ok    Alpha       fine\n'), text);
    assert.ok(text.includes('\n  WARN  Beta        hmm\n                    → do this\n'), text);
    assert.match(text, /1 ok, 1 warning, 0 failures\n$/);
    const failed = buildReport(
      null,
      [...checks, { id: 'c', title: 'C', status: 'fail', summary: 'x', hints: [] }],
      0,
    );
    assert.equal(failed.exitCode, 1);
    assert.equal(worst(['ok', 'skip', 'warn']), 'warn');
  });
});

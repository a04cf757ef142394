import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { bouncesClassifyCommand } from '../../../src/cli/bounces-classify';

const EMAILS = resolve(__dirname, '..', '..', '..', '..', '..', 'shared', 'corpus', 'bounces', 'emails');

/** Runs the command with stdout captured; restores stdout and the exit code afterwards. */
async function capture(
  files: string[],
): Promise<{ lines: unknown[]; exitCode: number | string | undefined }> {
  const chunks: string[] = [];
  const original = process.stdout.write.bind(process.stdout);
  const before = process.exitCode;
  process.exitCode = undefined;
  const isCallback = (r: unknown): r is (err?: Error | null) => void => typeof r === 'function';
  // The test runner talks to its parent over stdout in binary chunks; let those through.
  process.stdout.write = (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
    const cb = rest.find(isCallback);
    if (typeof chunk !== 'string') return cb === undefined ? original(chunk) : original(chunk, cb);
    chunks.push(chunk);
    cb?.();
    return true;
  };
  try {
    await bouncesClassifyCommand(files);
  } finally {
    process.stdout.write = original;
  }
  const exitCode = process.exitCode;
  process.exitCode = before;
  const text = chunks.join('');
  return {
    lines:
      text === ''
        ? []
        : text
            .trimEnd()
            .split('\n')
            .map((l) => JSON.parse(l) as unknown),
    exitCode,
  };
}

describe('ctl bounces classify', () => {
  it('prints one JSON line per file, in argument order, with the path as given', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bounces-cli-'));
    try {
      const hard = join(dir, 'hard.eml');
      const soft = join(dir, 'soft.eml');
      const dsn = (status: string): string =>
        [
          'From: MAILER-DAEMON@mx.example.net',
          'Subject: Undelivered Mail',
          'Content-Type: multipart/report; boundary=b',
          '',
          '--b',
          'Content-Type: message/delivery-status',
          '',
          `Final-Recipient: rfc822; a@example.org`,
          'Action: failed',
          `Status: ${status}`,
          '--b--',
        ].join('\n');
      await writeFile(hard, dsn('5.1.1'));
      await writeFile(soft, dsn('5.2.2'));
      const { lines, exitCode } = await capture([soft, hard, soft]);
      assert.equal(exitCode, undefined);
      assert.deepEqual(
        lines.map((l) => {
          const { file, results } = l as { file: string; results: { kind: string }[] };
          return [file, results.map((r) => r.kind)];
        }),
        [
          [soft, ['soft']],
          [hard, ['hard']],
          [soft, ['soft']],
        ],
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reports an unreadable file on its line and exits non-zero', async () => {
    const { lines, exitCode } = await capture(['/nonexistent/report.eml']);
    assert.equal(exitCode, 1);
    assert.deepEqual((lines[0] as { results: unknown[] }).results, []);
    assert.match((lines[0] as { error: string }).error, /ENOENT/);
  });

  it('classifies the corpus files in one call in well under 5 s', async (t) => {
    if (!existsSync(EMAILS)) {
      t.skip(`corpus not found at ${EMAILS}`);
      return;
    }
    const files = readdirSync(EMAILS)
      .filter((f) => f.endsWith('.eml'))
      .sort()
      .map((f) => join(EMAILS, f));
    const started = process.hrtime.bigint();
    const { lines } = await capture(files);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    t.diagnostic(`${files.length} files in ${ms.toFixed(0)} ms`);
    assert.equal(lines.length, files.length);
    assert.deepEqual(
      lines.map((l) => (l as { file: string }).file),
      files,
    );
    const arf = lines.find((l) => (l as { file: string }).file.endsWith('arf-16.eml')) as
      { results: { kind: string }[] } | undefined;
    assert.ok(arf === undefined || arf.results.every((r) => r.kind === 'complaint'));
    assert.ok(ms < 5000, `${ms} ms`);
  });
});

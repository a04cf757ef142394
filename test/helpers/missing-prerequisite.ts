// One rule for tests that need something npm does not install (Chromium, PostgreSQL, a
// Compose CLI): `npm test` on a machine without it still passes, skipping those tests with
// a diagnostic nobody can miss; under CI=true, where `.ci/run` installs it, a missing one
// is a failure, so a CI run can never go green by skipping them.

const announced = new Set<string>();

/**
 * The reason to hand to `t.skip(…)` or a suite's `{ skip }` when `subject` (e.g.
 * "PostgreSQL tests") cannot run because of `why`: says so once per process on stderr,
 * with `hints` on how to install what is missing. Throws under CI=true instead.
 */
export function skipLoudly(subject: string, why: string, hints: readonly string[] = []): string {
  if (process.env.CI === 'true') throw new Error(`${why} (CI=true: ${subject} must run)`);
  if (!announced.has(subject)) {
    announced.add(subject);
    const line = '!'.repeat(78);
    process.stderr.write(
      [
        '',
        line,
        `!! SKIPPING ${subject}: ${why}.`,
        ...hints.map((h) => `!! ${h}`),
        '!! Under CI=true these tests fail instead of skipping.',
        line,
        '',
      ].join('\n'),
    );
  }
  return why;
}

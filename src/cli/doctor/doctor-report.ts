import type { CheckResult, CheckStatus } from './check-result';

export interface DoctorReport {
  readonly generatedAt: string;
  readonly dataDir: string | null;
  readonly checks: readonly CheckResult[];
  readonly counts: Readonly<Record<CheckStatus, number>>;
  /** 1 when any check failed; warnings alone are 0. */
  readonly exitCode: number;
}

export function counts(checks: readonly CheckResult[]): Record<CheckStatus, number> {
  const out: Record<CheckStatus, number> = { ok: 0, warn: 0, fail: 0, skip: 0 };
  for (const c of checks) out[c.status] += 1;
  return out;
}

export function buildReport(
  dataDir: string | null,
  checks: readonly CheckResult[],
  nowMs: number,
): DoctorReport {
  const c = counts(checks);
  return {
    generatedAt: new Date(nowMs).toISOString(),
    dataDir,
    checks,
    counts: c,
    exitCode: c.fail > 0 ? 1 : 0,
  };
}

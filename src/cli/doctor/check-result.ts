export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface CheckResult {
  readonly id: string;
  readonly title: string;
  readonly status: CheckStatus;
  readonly summary: string;
  /** What to do about a warning or failure. */
  readonly hints: readonly string[];
  readonly details?: Readonly<Record<string, unknown>>;
}

export function result(
  id: string,
  title: string,
  status: CheckStatus,
  summary: string,
  hints: readonly string[] = [],
  details?: Record<string, unknown>,
): CheckResult {
  return details === undefined
    ? { id, title, status, summary, hints }
    : { id, title, status, summary, hints, details };
}

const RANK: Record<CheckStatus, number> = { skip: 0, ok: 1, warn: 2, fail: 3 };

export function worst(statuses: readonly CheckStatus[]): CheckStatus {
  return statuses.reduce<CheckStatus>((a, b) => (RANK[b] > RANK[a] ? b : a), 'ok');
}

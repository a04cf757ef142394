import fs from 'node:fs';
import type { CheckResult } from './check-result';
import { result } from './check-result';

/**
 * The clock: TLS certificates, DKIM signature timestamps and session tokens all
 * depend on it. Without a reference only plausibility is checked: not before
 * `floorMs` (this build) and not absurdly late.
 */
export function evaluateClock(input: {
  readonly nowMs: number;
  readonly floorMs: number;
  readonly reference?:
    | { readonly source: string; readonly dateMs: number }
    | { readonly source: string; readonly error: string };
}): CheckResult {
  const title = 'Clock';
  const now = new Date(input.nowMs).toISOString();
  if (input.nowMs < input.floorMs)
    return result('clock', title, 'fail', `the clock says ${now}, before this build was made`, [
      'Set the system time and keep it synchronised (NTP: systemd-timesyncd, chrony).',
    ]);
  if (input.nowMs > Date.UTC(2100, 0, 1))
    return result('clock', title, 'fail', `the clock says ${now}`, ['Set the system time (NTP).']);
  const ref = input.reference;
  if (ref === undefined)
    return result('clock', title, 'ok', `${now} (plausible; pass --clock-url to compare with a server)`);
  if ('error' in ref)
    return result('clock', title, 'warn', `${now}; could not read the time from ${ref.source}: ${ref.error}`);
  // The Date header has a resolution of one second.
  const skewS = Math.round((input.nowMs - ref.dateMs) / 1000);
  const summary = `${now}, ${Math.abs(skewS)} s ${skewS >= 0 ? 'ahead of' : 'behind'} ${ref.source}`;
  if (Math.abs(skewS) > 300)
    return result('clock', title, 'fail', summary, [
      'Synchronise the clock (NTP): a skew of minutes breaks TLS, DKIM expiry and session tokens.',
    ]);
  if (Math.abs(skewS) > 30) return result('clock', title, 'warn', summary, ['Synchronise the clock (NTP).']);
  return result('clock', title, 'ok', summary);
}

/** The earliest plausible time: when this file was built (minus a day for clock-skewed builders). */
export function clockFloorMs(): number {
  const built = Date.UTC(2025, 0, 1);
  try {
    return Math.max(built, fs.statSync(__filename).mtimeMs - 24 * 3600 * 1000);
  } catch {
    return built;
  }
}

export async function referenceTime(
  url: string,
  timeoutMs: number,
): Promise<{ source: string; dateMs: number } | { source: string; error: string }> {
  const source = new URL(url).host;
  try {
    const res = await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(timeoutMs) });
    const date = res.headers.get('date');
    const ms = date === null ? NaN : Date.parse(date);
    if (Number.isNaN(ms)) return { source, error: 'no Date header' };
    return { source, dateMs: ms };
  } catch (err) {
    return { source, error: (err as Error).message };
  }
}

/**
 * Abuse signals (spec: Limits, abuse signal thresholds) as pure functions of
 * counted inputs. Counts are per recipient, as the quota counts them: a message
 * to four recipients is four messages, and one bounce among them is one bounce.
 */

/** The signals in the order evaluateSignals reports them; the one list their type comes from. */
export const SIGNAL_NAMES = [
  'bounce_rate',
  'complaint_rate',
  'failure_rate',
  'volume_spike',
  'recipient_repetition',
] as const;

export type SignalName = (typeof SIGNAL_NAMES)[number];

/** The spec's default thresholds. */
export const THRESHOLDS = {
  /** Percent of attempted recipients, over 24 h, only from `minimum` attempted recipients on. */
  bounceRate: { percent: 10, minimum: 50 },
  complaintRate: { percent: 0.5 },
  failureRate: { percent: 30 },
  /**
   * Last hour against the hourly average of the 7 days before it. The average is
   * floored at one message an hour and the hour must hold `minimum` messages: the
   * spec gives neither, but without them an account's first sends (no history)
   * would always be a spike.
   */
  volumeSpike: { factor: 10, minimum: 50, baselineHours: 7 * 24, floorPerHour: 1 },
  /** Messages to one address within the last hour. */
  recipientRepetition: { max: 20 },
} as const;

export interface SignalInputs {
  /**
   * Recipients of the account's messages created in the last 24 h that were
   * attempted (handed towards the MTA at least once) and are past the hand-off:
   * sent, delivered, deferred, bounced, complained or failed.
   */
  readonly attempted: number;
  readonly bounced: number;
  readonly complained: number;
  readonly failed: number;
  /** Recipients accepted for sending in the last hour (the quota ledger). */
  readonly lastHour: number;
  /** Recipients accepted in the 7 days before the last hour. */
  readonly baseline: number;
  /** The address mailed most often in the last hour, with how often. */
  readonly topRecipient: { readonly address: string; readonly count: number } | null;
}

export interface Signal {
  readonly name: SignalName;
  /** Percent for the rates, a multiple of the baseline for volume_spike, a count for repetition. */
  readonly value: number;
  readonly unit: 'percent' | 'ratio' | 'messages';
  readonly threshold: number;
  /** The window `value` is measured over. */
  readonly window: '24h' | '1h';
  /** Whether the value is above the threshold (and any minimum volume is met). */
  readonly fires: boolean;
  /** The counts behind the value. */
  readonly basis: Readonly<Record<string, number | string | null>>;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** `part / whole` strictly above `pct` percent, compared without rounding. */
function above(part: number, whole: number, pct: number): boolean {
  return whole > 0 && part * 100 > pct * whole;
}

function pct(part: number, whole: number): number {
  return whole === 0 ? 0 : round2((part / whole) * 100);
}

export function evaluateSignals(i: SignalInputs): Signal[] {
  const t = THRESHOLDS;
  const spike = t.volumeSpike;
  const perHour = i.baseline / spike.baselineHours;
  const reference = Math.max(perHour, spike.floorPerHour);
  const repeated = i.topRecipient?.count ?? 0;
  return [
    {
      name: 'bounce_rate',
      value: pct(i.bounced, i.attempted),
      unit: 'percent',
      threshold: t.bounceRate.percent,
      window: '24h',
      fires: i.attempted >= t.bounceRate.minimum && above(i.bounced, i.attempted, t.bounceRate.percent),
      basis: { bounced: i.bounced, attempted: i.attempted, minimum: t.bounceRate.minimum },
    },
    {
      name: 'complaint_rate',
      value: pct(i.complained, i.attempted),
      unit: 'percent',
      threshold: t.complaintRate.percent,
      window: '24h',
      fires: above(i.complained, i.attempted, t.complaintRate.percent),
      basis: { complained: i.complained, attempted: i.attempted },
    },
    {
      name: 'failure_rate',
      value: pct(i.failed, i.attempted),
      unit: 'percent',
      threshold: t.failureRate.percent,
      window: '24h',
      fires: above(i.failed, i.attempted, t.failureRate.percent),
      basis: { failed: i.failed, attempted: i.attempted },
    },
    {
      name: 'volume_spike',
      value: round2(i.lastHour / reference),
      unit: 'ratio',
      threshold: spike.factor,
      window: '1h',
      // lastHour > factor × max(baseline / hours, floor), in integers.
      fires:
        i.lastHour >= spike.minimum &&
        i.lastHour * spike.baselineHours >
          spike.factor * Math.max(i.baseline, spike.floorPerHour * spike.baselineHours),
      basis: {
        lastHour: i.lastHour,
        baselinePerHour: round2(perHour),
        baselineWindow: '7d',
        minimum: spike.minimum,
      },
    },
    {
      name: 'recipient_repetition',
      value: repeated,
      unit: 'messages',
      threshold: t.recipientRepetition.max,
      window: '1h',
      fires: repeated > t.recipientRepetition.max,
      basis: { address: i.topRecipient?.address ?? null, count: repeated },
    },
  ];
}

/** Signals measured as a share of the attempted recipients. */
const RATE_SIGNALS: readonly SignalName[] = ['bounce_rate', 'complaint_rate', 'failure_rate'];

/**
 * The firing signals that may suspend an account automatically. A rate counts only
 * from `minVolume` attempted recipients on (ABUSE_MIN_VOLUME): below it one report is
 * a large share, and reports come from outside, so one forged complaint against a
 * new account made complaint_rate 100 % and suspended it (issue 17, finding 3).
 * Volume and repetition measure the account's own sending and are not affected.
 */
export function suspensionGrounds(
  signals: readonly Signal[],
  inputs: Pick<SignalInputs, 'attempted'>,
  minVolume: number,
): Signal[] {
  return signals.filter((s) => s.fires && (!RATE_SIGNALS.includes(s.name) || inputs.attempted >= minVolume));
}

export function firingNames(signals: readonly Signal[]): SignalName[] {
  return signals.filter((s) => s.fires).map((s) => s.name);
}

/** One line naming each firing signal with its value, for a suspension reason and the logs. */
export function describeFiring(signals: readonly Signal[]): string {
  return signals
    .filter((s) => s.fires)
    .map((s) => {
      const unit = s.unit === 'percent' ? '%' : s.unit === 'ratio' ? '×' : '';
      return `${s.name} ${s.value}${unit} > ${s.threshold}${unit} (${s.window})`;
    })
    .join('; ');
}

// Screen 2: the last 30 days per status, rates against the thresholds, health signals, quota.
import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { EmailStatus, HealthSignals, LimitView, Settings, StatsOverview } from '../api';
import { get } from '../api';
import { Badge, Loaded, PageTitle, Time, useLoad } from '../ui';
import { MailHostnameBanner } from './mail-hostname';
import { Onboarding } from './onboarding';

type Signal = HealthSignals['signals'][number];
type Usage = StatsOverview['usage']['hour'];

const SERIES: readonly (readonly [EmailStatus, string])[] = [
  ['sent', '#6b7bd6'],
  ['delivered', '#2f9e5b'],
  ['bounced', '#d9822b'],
  ['complained', '#b04fc4'],
  ['failed', '#d64545'],
];

export function Overview() {
  const [load] = useLoad(async () => {
    const [overview, signals, settings] = await Promise.all([
      get<StatsOverview>('/v1/stats/overview?days=30'),
      get<HealthSignals>('/v1/stats/health-signals'),
      get<Settings>('/v1/settings'),
    ]);
    return { overview, signals, settings };
  }, 'overview');
  return (
    <section>
      <PageTitle>Overview</PageTitle>
      <Loaded load={load}>
        {({ overview, signals, settings }) => (
          <>
            <MailHostnameBanner mailHostname={settings.mailHostname} />
            <div class="grid" data-ready="overview">
              <Onboarding />
              <div class="card wide">
                <h2>Last {overview.window.days} days</h2>
                <p class="muted">
                  Live mail only: test-mode mail (captured, never delivered) is left out of these counts and
                  the rates.
                </p>
                <Chart overview={overview} />
                <ul class="legend" aria-label="Totals">
                  {SERIES.map(([name]) => (
                    <li key={name}>
                      <span class={`dot s-${name}`} aria-hidden="true" />
                      {name}: {overview.totals[name]}
                    </li>
                  ))}
                </ul>
              </div>
              <Rates overview={overview} signals={signals} />
              <div class="card">
                <h2>Quota</h2>
                <Quota label="This hour" usage={overview.usage.hour} limit={settings.limits.emailsPerHour} />
                <Quota label="Today" usage={overview.usage.day} limit={settings.limits.emailsPerDay} />
              </div>
              <div class="card">
                <h2>Health signals</h2>
                <p class="muted">
                  Evaluated <Time iso={signals.evaluatedAt} />
                </p>
                <div class="table-wrap" tabIndex={0}>
                  <table>
                    <caption class="sr-only">Abuse health signals</caption>
                    <thead>
                      <tr>
                        <th scope="col">Signal</th>
                        <th scope="col">Value</th>
                        <th scope="col">Threshold</th>
                        <th scope="col">State</th>
                      </tr>
                    </thead>
                    <tbody>
                      {signals.signals.map((s) => (
                        <tr key={s.name}>
                          <td>
                            {s.name.replace(/_/g, ' ')} ({s.window})
                          </td>
                          <td>{fmtSignal(s.value, s.unit)}</td>
                          <td>{fmtSignal(s.threshold, s.unit)}</td>
                          <td>
                            <Badge value={s.fires ? 'firing' : 'ok'} tone={s.fires ? 'bad' : 'good'} />
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </div>
            </div>
          </>
        )}
      </Loaded>
    </section>
  );
}

function fmtSignal(v: number, unit: string): string {
  if (unit === 'percent') return `${v.toFixed(2)} %`;
  if (unit === 'ratio') return v.toFixed(2);
  return String(v);
}

function Rates(props: { overview: StatsOverview; signals: HealthSignals }) {
  const threshold = (name: string) => props.signals.signals.find((s) => s.name === name);
  const row = (label: string, rate: number, signal: Signal | undefined) => {
    // The API's rates are percentages already (two decimals).
    const pct = rate;
    const over = signal !== undefined && signal.unit === 'percent' && pct >= signal.threshold;
    return (
      <tr>
        <th scope="row">{label}</th>
        <td>{pct.toFixed(2)} %</td>
        <td>{signal ? fmtSignal(signal.threshold, signal.unit) : '—'}</td>
        <td>
          <Badge value={over ? 'over' : 'ok'} tone={over ? 'bad' : 'good'} />
        </td>
      </tr>
    );
  };
  return (
    <div class="card">
      <h2>Rates</h2>
      <div class="table-wrap" tabIndex={0}>
        <table>
          <caption class="sr-only">Rates against the account's thresholds</caption>
          <thead>
            <tr>
              <th scope="col">Rate</th>
              <th scope="col">Value</th>
              <th scope="col">Threshold</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {row('Delivery', props.overview.rates.delivery, undefined)}
            {row('Bounce', props.overview.rates.bounce, threshold('bounce_rate'))}
            {row('Complaint', props.overview.rates.complaint, threshold('complaint_rate'))}
          </tbody>
        </table>
      </div>
      <p class="muted">Over {props.overview.rates.terminalMessages} finished messages.</p>
    </div>
  );
}

function Quota(props: { label: string; usage: Usage; limit: LimitView }) {
  const pct = props.usage.limit > 0 ? Math.min(100, (props.usage.used / props.usage.limit) * 100) : 0;
  return (
    <div class="quota">
      <label>
        {props.label}: {props.usage.used} of {props.usage.limit}
        <progress max={100} value={pct} />
      </label>
      <p class="muted small-text">
        Limit {props.limit.effective}
        {props.limit.override !== null ? ' (set by the operator)' : ''}
        {props.limit.own !== null ? ` (lowered by you to ${props.limit.own})` : ''}
      </p>
    </div>
  );
}

/** Whether the system asks for dark: the chart's canvas redraws in the theme's colours. */
function useDark(): boolean {
  const query = window.matchMedia('(prefers-color-scheme: dark)');
  const [dark, setDark] = useState(query.matches);
  useEffect(() => {
    const change = () => setDark(query.matches);
    query.addEventListener('change', change);
    return () => query.removeEventListener('change', change);
  }, []);
  return dark;
}

function Chart(props: { overview: StatsOverview }) {
  const box = useRef<HTMLDivElement>(null);
  const dark = useDark();
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const days: string[] = [];
    const from = new Date(`${props.overview.window.from}T00:00:00Z`);
    for (let i = 0; i < props.overview.window.days; i++)
      days.push(new Date(from.getTime() + i * 86_400_000).toISOString().slice(0, 10));
    const index = new Map(days.map((d, i) => [d, i]));
    const data: number[][] = [days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000)];
    for (const [status] of SERIES) {
      const values = days.map(() => 0);
      for (const row of props.overview.daily) {
        const i = index.get(row.day);
        if (row.status === status && i !== undefined) values[i] = row.count;
      }
      data.push(values);
    }
    const plot = new uPlot(
      {
        width: el.clientWidth || 600,
        height: 220,
        legend: { show: false },
        // A canvas knows no currentColor: the text colour of the theme in force.
        axes: [{ stroke: getComputedStyle(el).color }, { stroke: getComputedStyle(el).color }],
        series: [{}, ...SERIES.map(([label, stroke]) => ({ label, stroke, width: 2 }))],
      },
      data as uPlot.AlignedData,
      el,
    );
    // Follows its box, not the window: the grid cell changes width with the layout too.
    const observer = new ResizeObserver(() => plot.setSize({ width: el.clientWidth || 600, height: 220 }));
    observer.observe(el);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [props.overview, dark]);
  return (
    <div
      ref={box}
      class="chart"
      role="img"
      aria-label={`Messages per day and status over the last ${props.overview.window.days} days`}
    />
  );
}

import type { CheckStatus } from './check-result';
import type { DoctorReport } from './doctor-report';

const LABEL: Record<CheckStatus, string> = { ok: 'ok', warn: 'WARN', fail: 'FAIL', skip: 'skip' };

/** The human report: one line per check, hints under it. */
export function formatReport(report: DoctorReport): string {
  const width = Math.max(...report.checks.map((c) => c.title.length), 10);
  const lines = [
    `Mailroom doctor, ${report.generatedAt}${report.dataDir ? ` (DATA_DIR ${report.dataDir})` : ''}`,
    '',
  ];
  for (const c of report.checks) {
    lines.push(`  ${LABEL[c.status].padEnd(4)}  ${c.title.padEnd(width)}  ${c.summary}`);
    if (c.status !== 'ok' || c.id === 'secret_key' || c.id === 'tls')
      for (const h of c.hints) lines.push(`  ${''.padEnd(4)}  ${''.padEnd(width)}  → ${h}`);
  }
  const n = report.counts;
  lines.push(
    '',
    `${n.ok} ok, ${n.warn} warning${n.warn === 1 ? '' : 's'}, ${n.fail} failure${n.fail === 1 ? '' : 's'}` +
      (n.skip > 0 ? `, ${n.skip} skipped` : ''),
  );
  return `${lines.join('\n')}\n`;
}

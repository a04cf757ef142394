/**
 * Plain-text tables for `ctl`'s list commands (`--json` prints the rows as JSON instead): one
 * header line, one line per row, columns padded to their widest cell, long cells cut with an
 * ellipsis so a row stays on one terminal line.
 */
export interface Column<T> {
  readonly header: string;
  readonly cell: (row: T) => string | number | null | undefined;
  /** Longer cells are cut to this many characters (default 40). */
  readonly max?: number;
}

function fit(value: string | number | null | undefined, max: number): string {
  const text =
    value === null || value === undefined || value === '' ? '-' : String(value).replace(/\s+/g, ' ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function formatTable<T>(columns: readonly Column<T>[], rows: readonly T[], empty: string): string {
  if (rows.length === 0) return `${empty}\n`;
  const cells = rows.map((row) => columns.map((c) => fit(c.cell(row), c.max ?? 40)));
  const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((r) => (r[i] ?? '').length)));
  const line = (values: readonly string[]) =>
    values
      .map((v, i) => (i === values.length - 1 ? v : v.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return `${[line(columns.map((c) => c.header)), ...cells.map(line)].join('\n')}\n`;
}

/** Renders rows as an aligned plain-text table with a header line. */
export function renderTable(columns: readonly string[], rows: ReadonlyArray<ReadonlyArray<unknown>>): string {
  const cells = rows.map((row) => row.map((v) => (v === null || v === undefined ? '-' : String(v))));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i]!.length)));
  const line = (values: readonly string[]) => values.map((v, i) => v.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(columns.map((c) => c.toUpperCase())), ...cells.map(line)].join('\n');
}

// Plain-text and Markdown tables for the results: the same rows feed stdout and REPORT.md.

export interface Table {
  title?: string;
  headers: string[];
  rows: string[][];
  /** Columns aligned right (numbers); the others are aligned left. */
  numeric?: boolean[];
}

function width(text: string): number {
  // Count code points: "×" and "–" are one column each on a terminal.
  return [...text].length;
}

function pad(text: string, size: number, right: boolean): string {
  const fill = ' '.repeat(Math.max(0, size - width(text)));
  return right ? fill + text : text + fill;
}

export function formatTable(table: Table): string {
  const columns = table.headers.length;
  const sizes = table.headers.map((h, i) =>
    Math.max(width(h), ...table.rows.map((r) => width(r[i] ?? ''))),
  );
  const line = (cells: string[]) =>
    Array.from({ length: columns }, (_, i) =>
      pad(cells[i] ?? '', sizes[i]!, table.numeric?.[i] === true),
    )
      .join('  ')
      .trimEnd();
  const out: string[] = [];
  if (table.title) out.push(table.title);
  out.push(line(table.headers));
  out.push(sizes.map((s) => '-'.repeat(s)).join('  '));
  for (const row of table.rows) out.push(line(row));
  return out.join('\n');
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/** A Markdown table laid out the way Biome formats Markdown: cells padded to the column. */
export function formatMarkdownTable(table: Table): string {
  const columns = table.headers.length;
  const rows = [table.headers, ...table.rows].map((row) =>
    Array.from({ length: columns }, (_, i) => escapeCell(row[i] ?? '')),
  );
  const sizes = Array.from({ length: columns }, (_, i) =>
    Math.max(3, ...rows.map((r) => width(r[i]!))),
  );
  const right = (i: number) => table.numeric?.[i] === true;
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => pad(c, sizes[i]!, right(i))).join(' | ')} |`;
  const rule = `| ${sizes.map((w, i) => (right(i) ? `${'-'.repeat(w - 1)}:` : '-'.repeat(w))).join(' | ')} |`;
  return [line(rows[0]!), rule, ...rows.slice(1).map(line)].join('\n');
}

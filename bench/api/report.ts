/** Small numeric and text helpers for what the bench prints. */

/** `items` rotated left by `by`: round r of an interleaved run starts with a different server. */
export function rotate<T>(items: readonly T[], by: number): T[] {
  const shift = items.length === 0 ? 0 : by % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}

export const ms = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : 'n/a');
export const rps = (value: number): string => (Number.isFinite(value) ? value.toFixed(0) : 'n/a');
export const ratio = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(2)}×` : 'n/a');

export function verdict(ok: boolean): string {
  return ok ? 'meets target' : 'MISSES target';
}

/** `200×2500 429×3`, in status order. */
export function statuses(counts: ReadonlyMap<number, number>, failed = 0): string {
  const parts = [...counts.entries()].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`);
  if (failed > 0) parts.push(`no answer×${failed}`);
  return parts.join(' ') || 'none';
}

/** Columns padded to their widest cell; the first column left-aligned, the others right-aligned. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)]
    .map((text) => `  ${text}`)
    .join('\n');
}

export function heading(title: string): void {
  console.log(`\n== ${title}`);
}

export function note(text: string): void {
  console.log(`  ${text}`);
}

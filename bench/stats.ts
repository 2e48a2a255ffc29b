// Small statistics for repeated measurements: medians decide, not single runs, so one noisy
// run on a busy machine does not decide a comparison.

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** a / b, or NaN when either side is missing or b is zero (shown as "–", never as Infinity). */
export function ratio(a: number, b: number): number {
  if (!Number.isFinite(a) || !Number.isFinite(b) || b === 0) return Number.NaN;
  return a / b;
}

/** Sizes such as 256M, 1G, 2G, 10K, 1.5G, or plain bytes; binary units (1G = 2^30 bytes). */
export function parseSize(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([KMGT]?)(?:i?B)?$/i.exec(text.trim());
  if (!match) throw new Error(`Not a size: "${text}" (use e.g. 256M, 1G, 2G).`);
  const units: Record<string, number> = { '': 1, K: 2 ** 10, M: 2 ** 20, G: 2 ** 30, T: 2 ** 40 };
  const bytes = Number(match[1]) * units[match[2]!.toUpperCase()]!;
  if (!Number.isSafeInteger(Math.round(bytes)) || bytes <= 0) {
    throw new Error(`Not a usable size: "${text}".`);
  }
  return Math.round(bytes);
}

/** The short label a size was given with: 268435456 → "256 MiB", 2^30 → "1 GiB". */
export function sizeLabel(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = Number.isInteger(value) ? String(value) : value.toFixed(1);
  return `${shown} ${units[unit]}`;
}

export function formatSeconds(ms: number): string {
  if (!Number.isFinite(ms)) return '–';
  return ms < 10_000 ? `${(ms / 1000).toFixed(2)} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** Peak RSS as /usr/bin/time reports it (KiB), shown in MB (10^6 bytes) like the 150 MB target. */
export function formatRss(kib: number): string {
  if (!Number.isFinite(kib)) return '–';
  return `${Math.round((kib * 1024) / 1e6)} MB`;
}

export function rssMegabytes(kib: number): number {
  return (kib * 1024) / 1e6;
}

export function formatRatio(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}×` : '–';
}

export function formatRate(perSecond: number): string {
  if (!Number.isFinite(perSecond)) return '–';
  return `${perSecond >= 100 ? perSecond.toFixed(0) : perSecond.toFixed(1)} files/s`;
}

export function formatThroughput(mbPerSecond: number): string {
  return Number.isFinite(mbPerSecond) ? `${mbPerSecond.toFixed(0)} MB/s` : '–';
}

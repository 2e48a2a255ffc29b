// Sizes as people read them, one way everywhere a person sees one (the window, refusals the
// core writes): decimal units, as file managers on macOS and GNOME show them, and never
// "1000 KB" (that is "1.0 MB"). Plain code, shared by the core and the renderer.

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'];

/** Decimal units, as file managers on macOS and GNOME show them. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1000) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  // 999.9 KB rounds to "1000 KB": say "1.0 MB" instead.
  if (Number(value.toFixed(value < 10 ? 1 : 0)) >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = value < 10 ? 1 : 0;
  return `${value.toFixed(digits)} ${UNITS[unit]}`;
}

/**
 * A limit, never stated above what it is: 1 GiB is "1.07 GB", not "1.1 GB", so a 1.1 GB file
 * refused "up to 1.1 GB" cannot happen. Same units as formatBytes; two decimals only where one
 * would round the limit up.
 */
export function formatLimit(bytes: number): string {
  const shown = formatBytes(bytes);
  const [number, unit] = shown.split(' ');
  const scale = 1000 ** Math.max(0, UNITS.indexOf(unit ?? ''));
  if (Number(number) * scale <= bytes) return shown;
  return `${(Math.floor((bytes / scale) * 100) / 100).toFixed(2)} ${unit}`;
}

/**
 * A size refused for a limit, and the limit: the size is shown above the limit even where both
 * round alike ("67.11 MB; … up to 67 MB", never "67 MB; … up to 67 MB").
 */
export function formatOverLimit(size: number, limit: number): { size: string; limit: string } {
  const shownLimit = formatLimit(limit);
  const shown = formatBytes(size);
  const [number, unit] = shown.split(' ');
  const [limitNumber, limitUnit] = shownLimit.split(' ');
  if (unit !== limitUnit || Number(number) > Number(limitNumber)) {
    return { size: shown, limit: shownLimit };
  }
  const scale = 1000 ** Math.max(0, UNITS.indexOf(unit ?? ''));
  return {
    size: `${(Math.ceil((size / scale) * 100) / 100).toFixed(2)} ${unit}`,
    limit: shownLimit,
  };
}

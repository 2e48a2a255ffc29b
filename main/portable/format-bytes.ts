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

// Small helpers for what the shell says to people.

/** "1 file", "3 files". */
export const plural = (n: number, one: string, many: string): string =>
  `${n} ${n === 1 ? one : many}`;

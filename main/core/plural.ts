// Counts as people read them, one way for everything the app says (the tray, notifications,
// settings' answers).

/** "1 file", "3 files". */
export const plural = (n: number, one: string, many: string): string =>
  `${n} ${n === 1 ? one : many}`;

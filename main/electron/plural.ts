// Counts in what the tray and the notifications say: "1 file", "3 files".
export const plural = (n: number, one: string, many: string): string =>
  `${n} ${n === 1 ? one : many}`;

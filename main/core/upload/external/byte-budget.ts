// How many of a share's files send their bytes at once: by bytes in flight, not by count.
// The concurrency setting N is N slots of SLOT_BYTES each. A file of SLOT_BYTES or more takes a
// whole slot, so large files go at most N at once, as the setting always said: enough to keep
// a link busy without splitting its bandwidth into many slow streams. A smaller file takes its
// size's share of a slot (at least a tenth), so a share of screenshots goes wide: ten 2 MB files
// are 2.4 slots, all at once at the default of 3. Never more than MOST_AT_ONCE files, the most
// one completion takes (files.completeUploadExternal's `files`, MAX_FILES_PER_COMPLETION).
// Files start in the order given: one that does not fit waits, and those behind it wait too,
// so a large file is never passed over for ever by smaller ones. A file larger than the whole
// budget still goes, alone.

/** What a file of this size or larger takes: one whole slot of the setting. */
export const SLOT_BYTES = 8 * 1024 * 1024;
/** Files sending bytes at once, at most, whatever their sizes. */
export const MOST_AT_ONCE = 10;

/** A file's share of one slot: its size over SLOT_BYTES, between a tenth and one. */
export function slotsFor(bytes: number): number {
  return Math.min(1, Math.max(bytes, SLOT_BYTES / MOST_AT_ONCE) / SLOT_BYTES);
}

/** What a workspace or a share has sending now: files, and the slots they take. */
export interface InFlight {
  files: number;
  slots: number;
}

/**
 * Whether a file of `weight` slots may start beside what is in flight, within `slots` slots and
 * `mostFiles` files: the one rule of the CLI's direct sends, either protocol, and of the app's
 * queue (queue/scheduler.ts). Nothing in flight: it goes, however large.
 */
export function fitsBudget(
  inFlight: InFlight,
  weight: number,
  slots: number,
  mostFiles = Number.POSITIVE_INFINITY,
): boolean {
  const most = Math.max(1, Math.floor(slots));
  // A tiny tolerance: ten tenths must make exactly one slot.
  return (
    inFlight.files === 0 || (inFlight.files < mostFiles && inFlight.slots + weight <= most + 1e-9)
  );
}

export type ByteBudget = <T>(bytes: number, work: () => Promise<T>) => Promise<T>;

/**
 * At most `slots` slots' worth of files running at once (the concurrency setting), and at most
 * `mostFiles` files.
 */
export function byteBudget(slots: number, mostFiles = MOST_AT_ONCE): ByteBudget {
  const inFlight: InFlight = { files: 0, slots: 0 };
  const waiting: { weight: number; go: () => void }[] = [];
  const admit = () => {
    while (waiting.length > 0 && fitsBudget(inFlight, waiting[0]!.weight, slots, mostFiles)) {
      const next = waiting.shift()!;
      inFlight.slots += next.weight;
      inFlight.files++;
      next.go();
    }
  };
  return async (bytes, work) => {
    const weight = slotsFor(bytes);
    await new Promise<void>((go) => {
      waiting.push({ weight, go });
      admit();
    });
    try {
      return await work();
    } finally {
      inFlight.slots -= weight;
      inFlight.files--;
      admit();
    }
  };
}

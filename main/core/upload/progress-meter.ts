// File bytes the socket has taken, reported time-based (see progressMeter): shared by both
// protocols' byte uploads.

export const PROGRESS_INTERVAL_MS = 100;

export interface ProgressMeter {
  /** `bytes` more of the body were taken by the socket. */
  accepted(bytes: number): void;
  /** The attempt is over: no report after this. */
  stop(): void;
}

const NO_METER: ProgressMeter = { accepted: () => {}, stop: () => {} };

/**
 * File bytes the socket has taken, reported to `onProgress`: the first bytes and the last file
 * byte at once, and in between whatever the count has reached, sampled every
 * PROGRESS_INTERVAL_MS (so a slow link is seen moving ~10 times a second). `skip` is the body
 * bytes before the file's.
 *
 * Called for every write callback of the body, so `accepted` only adds to a counter and compares
 * it with the total: no clock read and no timer per call, whatever the slice size (at 16 KiB
 * slices, a slow link's, the clock and timer per call cost ~38 ms per GiB; bench/notes.md,
 * progress for free). The one timer is re-armed by its own tick while bytes keep coming.
 */
export function progressMeter(
  total: number,
  onProgress: ((sent: number, total: number) => void) | undefined,
  skip = 0,
): ProgressMeter {
  if (!onProgress) return NO_METER;
  let body = 0;
  // "0 of N" says nothing new; "0 of 0" is the one report an empty file gets.
  let reported = total === 0 ? -1 : 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const done = skip + total;
  const report = (): boolean => {
    const sent = Math.min(total, Math.max(0, body - skip));
    if (stopped || sent === reported) return false;
    reported = sent;
    onProgress(sent, total);
    return true;
  };
  const tick = () => {
    timer = undefined;
    // Nothing new since the last tick: the next accepted bytes start the timer again.
    if (report() && reported < total) arm();
  };
  const arm = () => {
    timer = setTimeout(tick, PROGRESS_INTERVAL_MS);
    timer.unref?.();
  };
  return {
    accepted(bytes) {
      body += bytes;
      if (body >= done) {
        if (timer) clearTimeout(timer);
        timer = undefined;
        report();
      } else if (timer === undefined && !stopped) {
        // The first bytes (or the first after a pause) go out at once; later ones on the tick.
        if (report()) arm();
      }
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}

// File bytes the socket has taken, reported time-based (see progressMeter): shared by both
// protocols' byte uploads.

export const PROGRESS_INTERVAL_MS = 100;

export interface ProgressMeter {
  /** `bytes` more of the body were taken by the socket. */
  accepted(bytes: number): void;
  /** The attempt is over: no report after this. */
  stop(): void;
}

/**
 * File bytes the socket has taken, reported to `onProgress` time-based: at once when the last
 * file byte is out, otherwise at most every PROGRESS_INTERVAL_MS, and a value held back by that
 * limit still goes out when the interval ends (so a slow link is seen moving ~10 times a second,
 * and the cost stays the same at any speed). `skip` is the body bytes before the file's.
 */
export function progressMeter(
  total: number,
  onProgress: ((sent: number, total: number) => void) | undefined,
  skip = 0,
): ProgressMeter {
  if (!onProgress) return { accepted: () => {}, stop: () => {} };
  let body = 0;
  // "0 of N" says nothing new; "0 of 0" is the one report an empty file gets.
  let reported = total === 0 ? -1 : 0;
  let last = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const sentNow = () => Math.min(total, Math.max(0, body - skip));
  const report = () => {
    timer = undefined;
    const sent = sentNow();
    if (stopped || sent === reported) return;
    last = performance.now();
    reported = sent;
    onProgress(sent, total);
  };
  return {
    accepted(bytes) {
      body += bytes;
      const sent = sentNow();
      if (sent === reported || stopped) return;
      const wait = last + PROGRESS_INTERVAL_MS - performance.now();
      if (sent === total || wait <= 0) {
        if (timer) clearTimeout(timer);
        report();
      } else if (!timer) {
        timer = setTimeout(report, wait);
        timer.unref?.();
      }
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}

// A rate limit shared by the files of one send outside the queue (the CLI's `send --base-url`).
// Slack answers a call over its limit with HTTP 429 and a Retry-After header giving the seconds
// to wait (https://docs.slack.dev/apis/web-api/rate-limits, "Handling rate limits"); the limit
// is the token's, not one file's, and Slack's Node SDK pauses its whole request queue for it
// (slackapi/node-slack-sdk packages/web-api/src/WebClient.ts, `requestQueue.pause()` on 429).
// So a 429 pauses every file of the send, not just the one that met it, and waiting is not a
// failed try: a file waits for up to the send's --max-wait. When the pause ends, the files that
// wait go one at a time, in the order they came (the one that met the limit first goes first),
// until one gets through without a 429 and the next may go: files racing for each place the
// limit frees would let one file lose every race while others pass it.

/** What a file hears when it asks to try. */
export type Turn =
  | { go: true }
  | { go: false; cancelled: true }
  /** Its wait would end after its --max-wait: `waitMs` is how long it would last in all, from
   * when the file was first held (so always more than --max-wait). */
  | { go: false; cancelled: false; waitMs: number };

/** One file's place in line, kept across its tries. */
interface Place {
  /** Resolves when this file may try: at once unless the send is rate limited. */
  turn(signal?: AbortSignal): Promise<Turn>;
  /** This try met a 429: the whole send waits `retryAfterMs`, this file first in line after. */
  limited(retryAfterMs: number | undefined, signal?: AbortSignal): Promise<Turn>;
  /** This try ended without a 429 (whatever its outcome): the next in line may go. */
  done(): void;
}

export interface RateLimitLine {
  /** A place for one file, behind every file that asked before it. */
  place(): Place;
}

export interface RateLimitLineOptions {
  /** How long one file may wait in all, from when it is first held (--max-wait). */
  maxWaitMs: number;
  /** A new pause starts (not said again for files that join it). */
  onPause?: (waitMs: number) => void;
  now?: () => number;
}

/** A 429 without a Retry-After (Slack always sends one; a proxy may not): a second's pause. */
const NO_RETRY_AFTER_MS = 1000;

interface Waiting {
  deadline: number;
  since: number;
  answer: (turn: Turn) => void;
}

export function rateLimitLine(opts: RateLimitLineOptions): RateLimitLine {
  const now = opts.now ?? Date.now;
  let places = 0;
  let pausedUntil = 0;
  // From the first 429 until no file waits: while limited, one try at a time.
  let limited = false;
  let trying: number | undefined;
  const waiting = new Map<number, Waiting>();
  const deadlines = new Map<number, number>();
  let timer: ReturnType<typeof setTimeout> | undefined;

  const pump = () => {
    const t = now();
    // A file whose wait cannot end within its --max-wait hears so now, not at its deadline.
    for (const [p, w] of waiting) {
      if (Math.max(t, pausedUntil) > w.deadline) {
        waiting.delete(p);
        w.answer({ go: false, cancelled: false, waitMs: Math.max(t, pausedUntil) - w.since });
      }
    }
    if (trying !== undefined) return;
    if (waiting.size === 0) {
      limited = false;
      return;
    }
    if (t < pausedUntil) {
      if (timer === undefined) {
        timer = setTimeout(() => {
          timer = undefined;
          pump();
        }, pausedUntil - t);
      }
      return;
    }
    const head = Math.min(...waiting.keys());
    const w = waiting.get(head)!;
    waiting.delete(head);
    trying = head;
    w.answer({ go: true });
  };

  const wait = (place: number, signal?: AbortSignal): Promise<Turn> => {
    if (signal?.aborted) return Promise.resolve({ go: false, cancelled: true });
    let deadline = deadlines.get(place);
    if (deadline === undefined) {
      deadline = now() + opts.maxWaitMs;
      deadlines.set(place, deadline);
    }
    return new Promise<Turn>((resolve) => {
      const onAbort = () => {
        waiting.delete(place);
        resolve({ go: false, cancelled: true });
        pump();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      waiting.set(place, {
        deadline,
        since: deadline - opts.maxWaitMs,
        answer: (turn) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(turn);
        },
      });
      pump();
    });
  };

  return {
    place() {
      const place = places++;
      return {
        turn: (signal) => (limited ? wait(place, signal) : Promise.resolve({ go: true })),
        limited(retryAfterMs, signal) {
          const t = now();
          const until = t + Math.max(0, retryAfterMs ?? NO_RETRY_AFTER_MS);
          if (until > pausedUntil) {
            // Said when a pause starts; a later 429 that only lengthens it is not news.
            if (pausedUntil <= t) opts.onPause?.(until - t);
            pausedUntil = until;
            if (timer !== undefined) clearTimeout(timer);
            timer = undefined;
          }
          limited = true;
          if (trying === place) trying = undefined;
          return wait(place, signal);
        },
        done() {
          if (trying !== place) return;
          trying = undefined;
          pump();
        },
      };
    },
  };
}

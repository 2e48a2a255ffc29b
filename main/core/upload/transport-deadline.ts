// Connect and idle timeouts, shared by every transport: one timer, re-armed on each sign of
// life (a chunk taken, a byte of the answer). There is deliberately no total timeout: a large
// file on a slow link takes as long as it takes.
import { TransportError } from './transport';

export type TimeoutCode = 'connect_timeout' | 'idle_timeout';

export interface Deadline {
  /** (Re)starts the timer: after `ms` of nothing, `onTimeout` gets the matching error. */
  arm(code: TimeoutCode, ms: number): void;
  /** Something moved: restart the idle timer. No effect once stopped. */
  touch(): void;
  /** The request is over: clear the timer for good. */
  stop(): void;
}

export interface DeadlineOptions {
  host: string;
  idleTimeoutMs: number;
  onTimeout: (error: TransportError) => void;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

export function createDeadline(options: DeadlineOptions): Deadline {
  const setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer =
    options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  const { host } = options;
  let timer: unknown;
  let stopped = false;
  const clear = () => {
    if (timer !== undefined) clearTimer(timer);
    timer = undefined;
  };
  const arm = (code: TimeoutCode, ms: number) => {
    if (stopped) return;
    clear();
    const seconds = Math.round(ms / 1000);
    timer = setTimer(() => {
      options.onTimeout(
        new TransportError(
          code,
          code === 'connect_timeout'
            ? `No connection to ${host} within ${seconds} s.`
            : `${host} went silent: nothing sent or received for ${seconds} s.`,
        ),
      );
    }, ms);
  };
  return {
    arm,
    touch: () => arm('idle_timeout', options.idleTimeoutMs),
    stop: () => {
      stopped = true;
      clear();
    },
  };
}

/** The error every transport gives when the caller's AbortSignal fires. */
export function abortedError(): TransportError {
  return new TransportError('aborted', 'The request was cancelled.');
}

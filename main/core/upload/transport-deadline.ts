// Connect and idle timeouts, shared by every transport: one timer, and every sign of life (a
// chunk taken, a byte of the answer) pushes the deadline back. There is deliberately no total
// timeout: a large file on a slow link takes as long as it takes.
import { TransportError } from './transport';

type TimeoutCode = 'connect_timeout' | 'idle_timeout';

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
  /** A monotonic clock in milliseconds. */
  now?: () => number;
}

export function createDeadline(options: DeadlineOptions): Deadline {
  const setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer =
    options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  const now = options.now ?? (() => performance.now());
  const { host } = options;
  let timer: unknown;
  let stopped = false;
  let code: TimeoutCode = 'idle_timeout';
  let limitMs = 0;
  let lastSign = 0;
  const clear = () => {
    if (timer !== undefined) clearTimer(timer);
    timer = undefined;
  };
  // A touch only notes the time (it comes with every chunk the socket takes: re-arming a timer
  // each time was ~10% of the CLI's JavaScript time per GiB); the timer, when it fires, waits
  // out whatever is left since the last sign of life.
  const expire = () => {
    timer = undefined;
    if (stopped) return;
    const left = lastSign + limitMs - now();
    if (left > 0) {
      timer = setTimer(expire, Math.min(left, limitMs));
      return;
    }
    const seconds = Math.round(limitMs / 1000);
    options.onTimeout(
      new TransportError(
        code,
        code === 'connect_timeout'
          ? `No connection to ${host} within ${seconds} s.`
          : `${host} went silent: nothing sent or received for ${seconds} s.`,
      ),
    );
  };
  const arm = (armCode: TimeoutCode, ms: number) => {
    if (stopped) return;
    clear();
    code = armCode;
    limitMs = ms;
    lastSign = now();
    timer = setTimer(expire, ms);
  };
  return {
    arm,
    touch: () => {
      if (stopped) return;
      if (code === 'idle_timeout' && timer !== undefined) lastSign = now();
      else arm('idle_timeout', options.idleTimeoutMs);
    },
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

// Waiting, injectable: the queue's scheduler and the upload retries take a Sleep, so tests run
// backoffs and rate-limit pauses on a clock they advance instead of real time.
import { setTimeout as delay } from 'node:timers/promises';

/** Resolves after `ms`; rejects once `signal` aborts (callers check the signal, not the error). */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const defaultSleep: Sleep = (ms, signal) =>
  delay(ms, undefined, signal ? { signal } : undefined);

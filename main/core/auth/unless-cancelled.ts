// A sign-in waits on the browser, the code exchange and auth.test; Cancel must end each wait at
// once, while the request itself goes on unheard (its late answer is dealt with by the caller).

export const CANCELLED = Symbol('cancelled');

/** `work`, or CANCELLED as soon as `signal` aborts. */
export function unlessCancelled<T>(
  signal: AbortSignal,
  work: Promise<T>,
): Promise<T | typeof CANCELLED> {
  if (signal.aborted) return Promise.resolve(CANCELLED);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(CANCELLED);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

// At most `size` pieces of work running at once, the rest started in the order they asked: a
// share's byte uploads (the concurrency setting) and its step-1 requests (STEP_ONE_IN_FLIGHT).
export interface Gate {
  <T>(work: () => Promise<T>): Promise<T>;
  /** Work running or waiting to run. */
  busy(): number;
}

export function gate(size: number): Gate {
  const most = Math.max(1, Math.floor(size));
  let running = 0;
  const waiting: (() => void)[] = [];
  const run = async <T>(work: () => Promise<T>): Promise<T> => {
    if (running >= most) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await work();
    } finally {
      // The freed place passes straight to the next in line, so `running` counts it still.
      if (waiting.length > 0) waiting.shift()!();
      else running--;
    }
  };
  return Object.assign(run, { busy: () => running + waiting.length });
}

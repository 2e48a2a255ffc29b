import { useEffect, useState } from 'preact/hooks';

/** The current time, refreshed every `everyMs` while `active`: drives countdowns without a timer per row. */
function useNow(active: boolean, everyMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs]);
  return now;
}

/**
 * The clock every "in N s" on screen reads: it ticks while any of `deadlines` is still ahead
 * (or while `moving`, for speeds measured over time), and stops once the last one has passed.
 * A view lists every deadline it shows, so no countdown can sit on screen with the clock
 * stopped: a count that waits for some other change to re-render freezes.
 */
export function useCountdownNow(deadlines: Iterable<number>, moving = false): number {
  const at = Date.now();
  let ahead = false;
  for (const deadline of deadlines) if (deadline > at) ahead = true;
  return useNow(moving || ahead);
}

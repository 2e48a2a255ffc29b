// Runs a call to window.trayshare and keeps its failure next to the control that started it,
// so errors are shown in place instead of in a global banner nobody connects to the action.
import { useCallback, useRef, useState } from 'preact/hooks';
import { plainError } from './bridge';

export interface Action {
  busy: boolean;
  error: string | null;
  run: <T>(call: () => Promise<T>) => Promise<T | undefined>;
  clear: () => void;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const pending = useRef(0);
  const run = useCallback(async <T>(call: () => Promise<T>): Promise<T | undefined> => {
    pending.current++;
    setBusy(true);
    setError(null);
    try {
      return await call();
    } catch (e) {
      setError(plainError(e));
      return undefined;
    } finally {
      pending.current--;
      if (pending.current === 0) setBusy(false);
    }
  }, []);
  const clear = useCallback(() => setError(null), []);
  return { busy, error, run, clear };
}

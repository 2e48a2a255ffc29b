// Esc closes a screen (the share sheet, Change destination, the preset editor) as its Cancel
// does, unless something inside took the key first (a list's own Esc, a question), or while its
// action runs. One listener on the document, so Esc works wherever focus is on the screen.
import { useLayoutEffect, useRef } from 'preact/hooks';

export function useEscape(onEscape: () => void, busy = false): void {
  const handler = useRef(onEscape);
  handler.current = onEscape;
  const isBusy = useRef(busy);
  isBusy.current = busy;
  // A layout effect: listening from the first render on, not after a frame (a window in the
  // background gets no frames, and Esc pressed at once must still close the screen).
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented && !isBusy.current) handler.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}

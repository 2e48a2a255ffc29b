// Where focus and scroll sit in the window's scrolling area as views change: a keyboard user
// lands on the new view's title (or the field the view is for), never on nothing, and never on
// a field hidden under a sticky footer.
import { useEffect, useRef } from 'preact/hooks';
import { rescueFocus } from './focus-rescue';

/** The scrolling area's ref; `page` is what counts as a view of its own for focus. */
export function useMainFocus(page: string, loaded: boolean) {
  // A view's sticky footer (Share, Save) sits over the bottom of the scrolling area: a field
  // that takes focus under it is scrolled up until it is clear of the footer.
  const mainRef = useRef<HTMLElement>(null);
  useEffect(() => {
    const main = mainRef.current;
    if (!main) return;
    const onFocusIn = (e: FocusEvent) => {
      const target = e.target;
      const footer = main.querySelector('.sheet__footer');
      if (!(target instanceof HTMLElement) || !footer || footer.contains(target)) return;
      const hidden = target.getBoundingClientRect().bottom - footer.getBoundingClientRect().top;
      if (hidden > -8) main.scrollTop += hidden + 8;
    };
    main.addEventListener('focusin', onFocusIn);
    return () => main.removeEventListener('focusin', onFocusIn);
  }, []);

  // Every view opens at its top (the queue after Share shows what was just sent), with focus
  // on its title, so the first Tab reaches its first control (Choose files on the drop view);
  // the share sheet focuses its comment, where Ctrl+Enter shares.
  useEffect(() => (mainRef.current ? rescueFocus(mainRef.current) : undefined), []);

  useEffect(() => {
    const main = mainRef.current;
    if (!main || !loaded) return;
    main.scrollTop = 0;
    const target =
      // A sheet of screenshots only (sheet--quick) focuses Share: Enter sends to where it shows.
      main.querySelector<HTMLElement>('.sheet--quick button[type="submit"]') ??
      main.querySelector<HTMLElement>('#share-comment, #redirect-channels') ??
      main.querySelector<HTMLElement>('h1');
    target?.focus({ preventScroll: true });
  }, [page, loaded]);
  return mainRef;
}

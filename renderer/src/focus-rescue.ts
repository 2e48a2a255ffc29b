// Focus is never left on nothing. A control that goes away after its action (Cancel on an
// upload that is now cancelled, Retry on one queued again, Cancel all, a removed workspace's
// card) would leave focus on the page itself, and a keyboard user would have to Tab from the
// top again. When that happens, focus goes to the control nearest to where the gone one was:
// the one that took its place, else the next, else the one before, first in its row, then in
// its list, then in the view, as a well-made list or dialog does. A control disabled while its
// action runs gets the focus back when it is enabled again. Rows mark themselves with
// data-focus-key, so focus can follow one that is drawn again elsewhere.

// Disabled controls count: one disabled only while an action runs (Retry, just drawn while
// Cancel's call is still answering) gets the focus once it is enabled.
const CONTROLS = [
  'button',
  'input:not([type="hidden"])',
  'select',
  'textarea',
  'a[href]',
  '[tabindex="0"]',
  'summary',
].join(', ');

interface Level {
  node: Element;
  /** The child of `node` the focus was in, and where it stood among its siblings. */
  child: Element;
  index: number;
}

/** The focused element's ancestors up to `root`, nearest first. */
function levelsOf(element: HTMLElement, root: HTMLElement): Level[] {
  const levels: Level[] = [];
  let child: Element = element;
  while (child !== root && child.parentElement) {
    const node = child.parentElement;
    levels.push({ node, child, index: [...node.children].indexOf(child) });
    child = node;
  }
  return levels;
}

function focusable(el: Element): el is HTMLElement {
  return (
    el instanceof HTMLElement &&
    el.matches(CONTROLS) &&
    el.closest('[hidden], [inert]') === null &&
    el.getClientRects().length > 0
  );
}

const firstIn = (el: Element): HTMLElement | undefined =>
  focusable(el) ? el : [...el.querySelectorAll(CONTROLS)].find(focusable);

/** The control nearest to where the gone element stood. */
function nearest(levels: readonly Level[], root: HTMLElement): HTMLElement | undefined {
  // A row that was drawn again elsewhere (an upload moved on to another group) is followed by
  // its key: focus stays with the same upload, preset or workspace.
  for (const { child } of levels) {
    const key = child.getAttribute('data-focus-key');
    if (!key) continue;
    const again = root.querySelector(`[data-focus-key="${CSS.escape(key)}"]`);
    const found = again ? firstIn(again) : undefined;
    if (found) return found;
  }
  for (const { node, child, index } of levels) {
    if (!node.isConnected || !root.contains(node)) continue;
    const children = [...node.children];
    const still = children.indexOf(child);
    if (still >= 0) {
      const inside = firstIn(child);
      if (inside) return inside;
    }
    // After it (or in its place, when it is gone), then before it, nearest first.
    const from = still >= 0 ? still + 1 : Math.min(index, children.length);
    const order = [
      ...children.slice(from),
      ...children.slice(0, still >= 0 ? still : from).reverse(),
    ];
    for (const sibling of order) {
      const found = firstIn(sibling);
      if (found) return found;
    }
  }
  return root.querySelector<HTMLElement>('h1[tabindex]') ?? undefined;
}

const focusLost = (): boolean => {
  const active = document.activeElement;
  return active === null || active === document.body || active === document.documentElement;
};

/** Watches `root` for a focused control that disappears, and moves focus to its nearest neighbour. */
export function rescueFocus(root: HTMLElement): () => void {
  let element: HTMLElement | null = null;
  let levels: Level[] = [];
  let held = false;
  const onFocusIn = (e: FocusEvent) => {
    if (!(e.target instanceof HTMLElement)) return;
    element = e.target;
    levels = levelsOf(e.target, root);
    held = false;
  };
  const observer = new MutationObserver(() => {
    if (!element || !focusLost()) return;
    if (element.isConnected) {
      if (element.matches(':disabled')) held = true;
      else if (held && focusable(element)) {
        // Enabled again after its action: focus comes back to it.
        held = false;
        element.focus();
      }
      // Otherwise the person clicked somewhere that takes no focus: that is theirs to do.
      return;
    }
    const target = nearest(levels, root);
    if (target?.matches(':disabled')) {
      // Its turn comes when it is enabled.
      element = target;
      levels = levelsOf(target, root);
      held = true;
      return;
    }
    element = null;
    target?.focus();
  });
  // Focus left for nothing while the control is still there and usable: the person clicked
  // somewhere that takes no focus. That is theirs to do; nothing is rescued later for it.
  const onFocusOut = (e: FocusEvent) => {
    const left = e.target;
    // Blurred because its action disabled it: it gets focus back once enabled.
    if (left instanceof HTMLElement && (left.matches(':disabled') || !left.isConnected)) {
      if (left === element) held = true;
      return;
    }
    setTimeout(() => {
      if (left !== element || !element?.isConnected || element.matches(':disabled')) return;
      if (focusLost()) element = null;
    }, 0);
  };
  root.addEventListener('focusin', onFocusIn);
  root.addEventListener('focusout', onFocusOut);
  observer.observe(root, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ['disabled'],
  });
  return () => {
    root.removeEventListener('focusin', onFocusIn);
    root.removeEventListener('focusout', onFocusOut);
    observer.disconnect();
  };
}

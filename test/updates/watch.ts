// The update state as Settings → About sees it: every view the app broadcast, and a wait for the
// one a test expects (no clock: it resolves on the change itself).
import type { UpdateView } from '../../main/core/api';

export interface ViewWatch {
  views: UpdateView[];
  onChange(view: UpdateView): void;
  until(matches: (view: UpdateView) => boolean): Promise<UpdateView>;
}

export function watchViews(): ViewWatch {
  const views: UpdateView[] = [];
  const waiters: { matches: (view: UpdateView) => boolean; resolve: (v: UpdateView) => void }[] =
    [];
  return {
    views,
    onChange(view) {
      views.push(view);
      for (const w of [...waiters]) {
        if (w.matches(view)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(view);
        }
      }
    },
    until(matches) {
      const seen = views.find(matches);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ matches, resolve }));
    },
  };
}

/** A log that keeps its lines, for what a person would find in the log file. */
export function lineLog() {
  const lines: string[] = [];
  return {
    lines,
    info: (message: string) => lines.push(`info ${message}`),
    warn: (message: string) => lines.push(`warn ${message}`),
  };
}

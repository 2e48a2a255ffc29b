// What the shell tells the window: the settings and the queue (loaded once, then pushed on
// every change), history changes, files and set-up links sent from outside (the tray, the file
// manager, a link that opened the app), and the desktop's notes. One effect subscribes to all of
// it, so the bridge is asked in one order on every start.
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { QueueItem, Snapshot, View } from '../../preload/contract';
import { api, plainError } from './bridge';
import { offerSetupLink } from './setup-link-store';
import { prepareCaptures } from './views/capture-preview';

/**
 * Where a set-up link takes the window: Settings, whose sign-in form it fills in; files waiting
 * for a first workspace stay where they are, on Getting started, which holds the same form.
 */
const viewForSetupLink = (current: View): View => (current === 'share' ? current : 'settings');

export function useShell(
  addPaths: (paths: string[]) => void,
  setView: (next: View | ((current: View) => View)) => void,
  setDropError: (error: string | null) => void,
) {
  const [snapshot, setSnapshot] = useState<Snapshot | null>(null);
  const [queue, setQueue] = useState<QueueItem[]>([]);
  const [historyVersion, setHistoryVersion] = useState(0);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [notes, setNotes] = useState<string[]>([]);

  const load = useCallback(async () => {
    try {
      const [snap, items] = await Promise.all([api().getSnapshot(), api().listQueue()]);
      setSnapshot(snap);
      setQueue(items);
      setLoadError(null);
    } catch (e) {
      setLoadError(plainError(e));
    }
  }, []);

  useEffect(() => {
    const bridge = api();
    const off = [
      bridge.on('settings-changed', setSnapshot),
      bridge.on('queue-changed', setQueue),
      bridge.on('history-changed', () => setHistoryVersion((v) => v + 1)),
      bridge.on('share-requested', ({ paths: shared }) => {
        prepareCaptures(shared);
        addPaths(shared);
      }),
      bridge.on('show-view', (next) => setView(next)),
      bridge.on('setup-link', (link) => {
        offerSetupLink(link);
        setView(viewForSetupLink);
      }),
    ];
    void load();
    bridge.takePendingPaths().then(addPaths, (e) => setDropError(plainError(e)));
    // A set-up link that opened the app while this page loaded: Settings, filled in from it.
    bridge.takeSetupLink().then(
      (link) => {
        if (!link) return;
        offerSetupLink(link);
        setView(viewForSetupLink);
      },
      () => undefined,
    );
    // Notes are a courtesy: a shell that cannot give them shows none.
    bridge.desktopNotes().then(setNotes, () => setNotes([]));
    return () => {
      for (const unsubscribe of off) unsubscribe();
    };
  }, [load, addPaths, setView, setDropError]);

  return { snapshot, queue, historyVersion, loadError, notes, load };
}

// Settings → Preferences: each switch and choice saves at once (no Save button), shows its new
// state before the save answers, and goes back to the saved state if the save fails.
import { useEffect, useState } from 'preact/hooks';
import type { Preferences, PreferencesPatch, TrayDropAction } from '../../../preload/contract';
import { api } from '../bridge';
import { ActionError, Notice } from '../ui/notice';
import { useAction } from '../use-action';
import { ShortcutField } from './shortcut-field';

const DROP_ACTIONS: { value: TrayDropAction; label: string }[] = [
  { value: 'share-sheet', label: 'Open the share sheet' },
  { value: 'default-preset', label: 'Send to the default preset' },
];

export function PreferencesSection(props: { preferences: Preferences }) {
  // Switches show the new state at once; the saved preferences replace it when they arrive,
  // and a failed save puts the saved state back.
  const [prefs, setPrefs] = useState(props.preferences);
  useEffect(() => setPrefs(props.preferences), [props.preferences]);
  const action = useAction();
  // Wayland lets no app keep a window on top: the drop window can stay open, not above others.
  const [onTop, setOnTop] = useState(true);
  useEffect(() => {
    api()
      .keepsDropWindowOnTop()
      .then(setOnTop, () => setOnTop(true));
  }, []);

  const set = async (patch: PreferencesPatch) => {
    setPrefs((current) => ({ ...current, ...patch }));
    const saved = await action.run(() => api().setPreferences(patch));
    if (!saved) setPrefs(props.preferences);
  };

  return (
    <section class="section" aria-labelledby="prefs-title">
      <div class="section__header">
        <h2 id="prefs-title" class="section__title">
          Preferences
        </h2>
      </div>
      <div class="card">
        <ShortcutField saved={prefs.shortcut} />
        <ShortcutField saved={prefs.captureShortcut} which="captureShortcut" />
        <PreferenceChecks prefs={prefs} onTop={onTop} set={set} />
        <PreferenceChoices prefs={prefs} set={set} />
        {action.error ? (
          <ActionError error={action.error} />
        ) : (
          <Notice tone="info">Changes here are saved as you make them.</Notice>
        )}
      </div>
    </section>
  );
}

/** The switches, each saved as it is flipped. */
function PreferenceChecks(props: {
  prefs: Preferences;
  onTop: boolean;
  set: (patch: PreferencesPatch) => Promise<void>;
}) {
  const { prefs, onTop, set } = props;
  return (
    <div class="checks">
      <label class="check">
        <input
          type="checkbox"
          checked={prefs.launchAtLogin}
          onChange={(e) => void set({ launchAtLogin: e.currentTarget.checked })}
        />
        <span>Start Trayshare when I log in</span>
      </label>
      <label class="check">
        <input
          type="checkbox"
          checked={prefs.dropWindowPinned}
          aria-describedby={onTop ? undefined : 'pref-drop-window-help'}
          onChange={(e) => void set({ dropWindowPinned: e.currentTarget.checked })}
        />
        <span>
          {onTop
            ? 'Keep the drop window open on top of other windows'
            : 'Keep the drop window open'}
        </span>
      </label>
      {onTop ? null : (
        <p id="pref-drop-window-help" class="field__help">
          Wayland does not let apps keep a window on top, so other windows can cover the drop
          window. The Trayshare window takes drops too.
        </p>
      )}
      <label class="check">
        <input
          type="checkbox"
          checked={prefs.fileManagerIntegration}
          onChange={(e) => void set({ fileManagerIntegration: e.currentTarget.checked })}
        />
        <span>Add “Share with Trayshare” to the file manager’s menu</span>
      </label>
      <label class="check">
        <input
          type="checkbox"
          checked={prefs.copyLinkOnDelivery}
          onChange={(e) => void set({ copyLinkOnDelivery: e.currentTarget.checked })}
        />
        <span>Copy the link when an upload is delivered</span>
      </label>
      <label class="check">
        <input
          type="checkbox"
          checked={prefs.openCapturesInEditor}
          onChange={(e) => void set({ openCapturesInEditor: e.currentTarget.checked })}
        />
        <span>Open captures in the editor</span>
      </label>
      <label class="field">
        <span class="field__label">Offer “Send smaller” for images longer than</span>
        <select
          class="input"
          value={String(prefs.sendSmallerEdge)}
          onChange={(e) => void set({ sendSmallerEdge: Number(e.currentTarget.value) })}
        >
          {[...new Set([1280, 1920, 2560, 3840, prefs.sendSmallerEdge])]
            .sort((a, b) => a - b)
            .map((edge) => (
              <option key={edge} value={String(edge)}>
                {edge} px
              </option>
            ))}
        </select>
      </label>
      <label class="check">
        <input
          type="checkbox"
          checked={prefs.keepMetadata}
          aria-describedby="pref-keep-metadata-help"
          onChange={(e) => void set({ keepMetadata: e.currentTarget.checked })}
        />
        <span>Keep photo details</span>
      </label>
      <p id="pref-keep-metadata-help" class="field__help">
        Off: photos and videos leave without where they were taken, the camera’s serial number, the
        owner’s name and hidden thumbnails. On: they leave as they are. Each share can still choose.
      </p>
      <label class="check">
        <input
          type="checkbox"
          checked={prefs.detailedLogs}
          aria-describedby="pref-detailed-logs-help"
          onChange={(e) => void set({ detailedLogs: e.currentTarget.checked })}
        />
        <span>Detailed logs</span>
      </label>
      <p id="pref-detailed-logs-help" class="field__help">
        Puts file names in the log. Without it the log names a file only by its kind and size (“a
        .png of 2.1 MB”). Tokens and comments are never logged.
      </p>
    </div>
  );
}

/** What a drop on the tray icon does, and how many uploads run at once. */
function PreferenceChoices(props: {
  prefs: Preferences;
  set: (patch: PreferencesPatch) => Promise<void>;
}) {
  const { prefs, set } = props;
  return (
    <div class="field-row">
      <div class="field">
        <label for="pref-drop" class="field__label">
          When files are dropped on the tray icon
        </label>
        <select
          id="pref-drop"
          class="input"
          value={prefs.trayDropAction}
          onChange={(e) => void set({ trayDropAction: e.currentTarget.value as TrayDropAction })}
        >
          {DROP_ACTIONS.map((a) => (
            <option key={a.value} value={a.value}>
              {a.label}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="pref-concurrency" class="field__label">
          Uploads at once, per workspace
        </label>
        <select
          id="pref-concurrency"
          class="input"
          value={String(prefs.concurrency)}
          onChange={(e) => void set({ concurrency: Number(e.currentTarget.value) })}
        >
          {[1, 2, 3, 4, 5, 6, 7, 8].map((n) => (
            <option key={n} value={String(n)}>
              {n}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

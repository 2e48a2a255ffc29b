import { useEffect, useState } from 'preact/hooks';
import { acceleratorFromLabel, shortcutLabel } from '../../../main/portable/shortcut-label';
import type { Preferences, PreferencesPatch, TrayDropAction } from '../../../preload/contract';
import { api } from '../bridge';
import { isMac } from '../platform';
import { acceleratorFromKey } from '../shortcut';
import { ActionError, Notice } from '../ui/notice';
import { useAction } from '../use-action';

const DROP_ACTIONS: { value: TrayDropAction; label: string }[] = [
  { value: 'share-sheet', label: 'Open the share sheet' },
  { value: 'default-preset', label: 'Send to the default preset' },
];

export function PreferencesSection(props: { preferences: Preferences }) {
  // Switches show the new state at once; the saved preferences replace it when they arrive,
  // and a failed save puts the saved state back.
  const [prefs, setPrefs] = useState(props.preferences);
  useEffect(() => setPrefs(props.preferences), [props.preferences]);
  // The accelerator to save, and what the person typed while typing (else its OS name shows).
  const [shortcut, setShortcut] = useState(prefs.shortcut);
  const [typed, setTyped] = useState<string | null>(null);
  const [shortcutError, setShortcutError] = useState<string | null>(null);
  const [shortcutSaved, setShortcutSaved] = useState(false);
  const shortcutAction = useAction();
  const action = useAction();
  // Wayland lets no app keep a window on top: the drop window can stay open, not above others.
  const [onTop, setOnTop] = useState(true);
  useEffect(() => {
    api()
      .keepsDropWindowOnTop()
      .then(setOnTop, () => setOnTop(true));
  }, []);

  useEffect(() => {
    setShortcut(prefs.shortcut);
    setTyped(null);
  }, [prefs.shortcut]);

  const set = async (patch: PreferencesPatch) => {
    setPrefs((current) => ({ ...current, ...patch }));
    const saved = await action.run(() => api().setPreferences(patch));
    if (!saved) setPrefs(props.preferences);
  };

  const saveShortcut = async (value: string) => {
    setShortcutSaved(false);
    setShortcutError(null);
    const result = await shortcutAction.run(() => api().setPreferences({ shortcut: value.trim() }));
    if (!result) return;
    if (result.shortcutError) setShortcutError(result.shortcutError);
    else {
      // Saved: the field shows it as the OS writes it, whatever was typed.
      setTyped(null);
      setShortcutSaved(true);
    }
  };

  return (
    <section class="section" aria-labelledby="prefs-title">
      <div class="section__header">
        <h2 id="prefs-title" class="section__title">
          Preferences
        </h2>
      </div>
      <div class="card">
        <form
          class="field"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void saveShortcut(shortcut);
          }}
        >
          <label for="pref-shortcut" class="field__label">
            Global shortcut
          </label>
          <div class="inline">
            <input
              id="pref-shortcut"
              class={`input input--mono input--grow${shortcutError ? ' input--invalid' : ''}`}
              value={typed ?? shortcutLabel(shortcut, isMac)}
              placeholder={shortcutLabel('CommandOrControl+Shift+U', isMac)}
              autocomplete="off"
              spellcheck={false}
              aria-invalid={shortcutError !== null}
              aria-describedby="pref-shortcut-help"
              onInput={(e) => {
                setTyped(e.currentTarget.value);
                setShortcut(acceleratorFromLabel(e.currentTarget.value, isMac));
                setShortcutSaved(false);
              }}
              onKeyDown={(e) => {
                const accelerator = acceleratorFromKey(e);
                if (!accelerator) return;
                e.preventDefault();
                setShortcut(accelerator);
                setTyped(null);
                setShortcutSaved(false);
              }}
            />
            <button
              type="submit"
              class="button"
              disabled={shortcutAction.busy || (shortcut === prefs.shortcut && !shortcutError)}
            >
              Save shortcut
            </button>
            {prefs.shortcut ? (
              <button
                type="button"
                class="button button--quiet"
                onClick={() => {
                  setShortcut('');
                  setTyped(null);
                  void saveShortcut('');
                }}
              >
                Turn off
              </button>
            ) : null}
          </div>
          <p id="pref-shortcut-help" class={shortcutError ? 'field__error' : 'field__help'}>
            {shortcutError ??
              `Press the keys in the field ${isMac ? '(with ⌘, ⌃ or ⌥)' : '(with Ctrl or Alt)'}, or type them, like ${shortcutLabel('CommandOrControl+Shift+U', isMac)}. Empty turns it off.`}
          </p>
          {shortcutSaved && !shortcutError ? (
            <p class="field__ok" role="status">
              {shortcut
                ? `Shortcut ${shortcutLabel(shortcut, isMac)} is ready.`
                : 'Shortcut turned off.'}
            </p>
          ) : null}
          <ActionError error={shortcutAction.error} />
        </form>

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
              checked={prefs.detailedLogs}
              aria-describedby="pref-detailed-logs-help"
              onChange={(e) => void set({ detailedLogs: e.currentTarget.checked })}
            />
            <span>Detailed logs</span>
          </label>
          <p id="pref-detailed-logs-help" class="field__help">
            Puts file names in the log. Without it the log names a file only by its kind and size
            (“a .png of 2.1 MB”). Tokens and comments are never logged.
          </p>
        </div>

        <div class="field-row">
          <div class="field">
            <label for="pref-drop" class="field__label">
              When files are dropped on the tray icon
            </label>
            <select
              id="pref-drop"
              class="input"
              value={prefs.trayDropAction}
              onChange={(e) =>
                void set({ trayDropAction: e.currentTarget.value as TrayDropAction })
              }
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
        {action.error ? (
          <ActionError error={action.error} />
        ) : (
          <Notice tone="info">Changes here are saved as you make them.</Notice>
        )}
      </div>
    </section>
  );
}

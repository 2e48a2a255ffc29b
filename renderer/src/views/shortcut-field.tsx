// The global shortcut, pressed or typed into one field and saved with its own button: unlike
// the switches beside it, a shortcut half typed is not one to register, and the OS may refuse
// one another app holds, which is said under the field.
import { useEffect, useState } from 'preact/hooks';
import { acceleratorFromLabel, shortcutLabel } from '../../../main/portable/shortcut-label';
import { api } from '../bridge';
import { isMac } from '../platform';
import { acceleratorFromKey } from '../shortcut';
import { ActionError } from '../ui/notice';
import { useAction } from '../use-action';

/** `saved` is the shortcut in the saved preferences ('' when it is off). */
export function ShortcutField(props: { saved: string }) {
  // The accelerator to save, and what the person typed while typing (else its OS name shows).
  const [shortcut, setShortcut] = useState(props.saved);
  const [typed, setTyped] = useState<string | null>(null);
  const [shortcutError, setShortcutError] = useState<string | null>(null);
  const [shortcutSaved, setShortcutSaved] = useState(false);
  const shortcutAction = useAction();

  useEffect(() => {
    setShortcut(props.saved);
    setTyped(null);
  }, [props.saved]);

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
        <ShortcutButtons
          saveDisabled={shortcutAction.busy || (shortcut === props.saved && !shortcutError)}
          canTurnOff={props.saved !== ''}
          onTurnOff={() => {
            setShortcut('');
            setTyped(null);
            void saveShortcut('');
          }}
        />
      </div>
      <ShortcutHelp shortcut={shortcut} error={shortcutError} saved={shortcutSaved} />
      <ActionError error={shortcutAction.error} />
    </form>
  );
}

/** Save shortcut, and Turn off while one is saved. */
function ShortcutButtons(props: {
  saveDisabled: boolean;
  canTurnOff: boolean;
  onTurnOff: () => void;
}) {
  return (
    <>
      <button type="submit" class="button" disabled={props.saveDisabled}>
        Save shortcut
      </button>
      {props.canTurnOff ? (
        <button type="button" class="button" onClick={props.onTurnOff}>
          Turn off
        </button>
      ) : null}
    </>
  );
}

/** How to enter a shortcut, or why the OS refused it; then that it is ready. */
function ShortcutHelp(props: { shortcut: string; error: string | null; saved: boolean }) {
  const { shortcut, error } = props;
  return (
    <>
      <p id="pref-shortcut-help" class={error ? 'field__error' : 'field__help'}>
        {error ??
          `Press the keys in the field ${isMac ? '(with ⌘, ⌃ or ⌥)' : '(with Ctrl or Alt)'}, or type them, like ${shortcutLabel('CommandOrControl+Shift+U', isMac)}. Empty turns it off.`}
      </p>
      {props.saved && !error ? (
        <p class="field__ok" role="status">
          {shortcut
            ? `Shortcut ${shortcutLabel(shortcut, isMac)} is ready.`
            : 'Shortcut turned off.'}
        </p>
      ) : null}
    </>
  );
}

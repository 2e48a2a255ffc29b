// The global shortcut, pressed or typed into one field and saved with its own button: unlike
// the switches beside it, a shortcut half typed is not one to register, and the OS may refuse
// one another app holds, which is said under the field.
import { useEffect, useState } from 'preact/hooks';
import { acceleratorFromLabel, shortcutLabel } from '../../../main/portable/shortcut-label';
import { acceleratorFromKey } from '../accelerator-keys';
import { api } from '../bridge';
import { isMac } from '../platform';
import { ActionError } from '../ui/notice';
import { useAction } from '../use-action';

/** Each global shortcut's field: the preference, its label, its example, the answer's error. */
const FIELDS = {
  shortcut: {
    id: 'pref-shortcut',
    label: 'Global shortcut',
    example: 'CommandOrControl+Shift+U',
    error: 'shortcutError',
    word: 'Shortcut',
    save: { text: 'Save shortcut', name: undefined },
    off: undefined,
  },
  captureShortcut: {
    id: 'pref-capture-shortcut',
    label: 'Capture shortcut',
    example: 'CommandOrControl+Shift+2',
    error: 'captureShortcutError',
    // Beside the share shortcut's buttons: named for this field (the visible word starts the name).
    word: 'Capture shortcut',
    save: { text: 'Save', name: 'Save capture shortcut' },
    off: 'Turn off capture shortcut',
  },
} as const;

/** `saved` is the shortcut in the saved preferences ('' when it is off). */
export function ShortcutField(props: { saved: string; which?: keyof typeof FIELDS }) {
  const which = props.which ?? 'shortcut';
  const field = FIELDS[which];
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
    const result = await shortcutAction.run(() => api().setPreferences({ [which]: value.trim() }));
    if (!result) return;
    const refused = result[field.error];
    if (refused) setShortcutError(refused);
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
      <label for={field.id} class="field__label">
        {field.label}
      </label>
      <div class="inline">
        <input
          id={field.id}
          class={`input input--mono input--grow${shortcutError ? ' input--invalid' : ''}`}
          value={typed ?? shortcutLabel(shortcut, isMac)}
          placeholder={shortcutLabel(field.example, isMac)}
          autocomplete="off"
          spellcheck={false}
          aria-invalid={shortcutError !== null}
          aria-describedby={`${field.id}-help`}
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
          field={field}
          saveDisabled={shortcutAction.busy || (shortcut === props.saved && !shortcutError)}
          canTurnOff={props.saved !== ''}
          onTurnOff={() => {
            setShortcut('');
            setTyped(null);
            void saveShortcut('');
          }}
        />
      </div>
      <ShortcutHelp field={field} shortcut={shortcut} error={shortcutError} saved={shortcutSaved} />
      <ActionError error={shortcutAction.error} />
    </form>
  );
}

/** Save shortcut, and Turn off while one is saved. */
function ShortcutButtons(props: {
  field: (typeof FIELDS)[keyof typeof FIELDS];
  saveDisabled: boolean;
  canTurnOff: boolean;
  onTurnOff: () => void;
}) {
  // One group: at a tray's width the buttons go under the field together, never Turn off alone.
  return (
    <span class="inline__buttons">
      <button
        type="submit"
        class="button"
        disabled={props.saveDisabled}
        aria-label={props.field.save.name}
      >
        {props.field.save.text}
      </button>
      {props.canTurnOff ? (
        <button type="button" class="button" onClick={props.onTurnOff} aria-label={props.field.off}>
          Turn off
        </button>
      ) : null}
    </span>
  );
}

/** How to enter a shortcut, or why the OS refused it; then that it is ready. */
function ShortcutHelp(props: {
  field: (typeof FIELDS)[keyof typeof FIELDS];
  shortcut: string;
  error: string | null;
  saved: boolean;
}) {
  const { shortcut, error, field } = props;
  const what =
    field.id === 'pref-capture-shortcut' ? 'Takes a screenshot into the share sheet. ' : '';
  return (
    <>
      <p id={`${field.id}-help`} class={error ? 'field__error' : 'field__help'}>
        {error ??
          `${what}Press the keys in the field ${isMac ? '(with ⌘, ⌃ or ⌥)' : '(with Ctrl or Alt)'}, or type them, like ${shortcutLabel(field.example, isMac)}. Empty turns it off.`}
      </p>
      {props.saved && !error ? (
        <p class="field__ok" role="status">
          {shortcut
            ? `${field.word} ${shortcutLabel(shortcut, isMac)} is ready.`
            : `${field.word} turned off.`}
        </p>
      ) : null}
    </>
  );
}

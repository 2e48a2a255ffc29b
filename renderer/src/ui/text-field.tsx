// A labelled text input whose error, when there is one, is shown under it and announced with
// it (aria-invalid + aria-describedby), so every field reports problems the same way.
import type { ComponentChildren } from 'preact';

export function TextField(props: {
  id: string;
  label: ComponentChildren;
  value: string;
  onInput: (value: string) => void;
  error?: string | null;
  /** Takes the remaining width of its row. */
  grow?: boolean;
  /** Machine text (URLs, tokens): monospace, no spell-check. */
  mono?: boolean;
  type?: 'text' | 'password';
  placeholder?: string;
  /** Enter in the field does this instead of submitting the form around it. */
  onEnter?: () => void;
}) {
  const error = props.error ?? null;
  const errorId = `${props.id}-error`;
  return (
    <div class={props.grow ? 'field field--grow' : 'field'}>
      <label for={props.id} class="field__label">
        {props.label}
      </label>
      <input
        id={props.id}
        type={props.type ?? 'text'}
        class={`input${props.mono ? ' input--mono' : ''}${error ? ' input--invalid' : ''}`}
        value={props.value}
        placeholder={props.placeholder}
        autocomplete="off"
        spellcheck={props.mono ? false : undefined}
        aria-invalid={error !== null}
        aria-describedby={error ? errorId : undefined}
        onInput={(e) => props.onInput(e.currentTarget.value)}
        onKeyDown={
          props.onEnter
            ? (e) => {
                if (e.key !== 'Enter') return;
                e.preventDefault();
                props.onEnter?.();
              }
            : undefined
        }
      />
      {error ? (
        <p id={errorId} class="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

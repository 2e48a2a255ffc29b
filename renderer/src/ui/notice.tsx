import type { ComponentChildren } from 'preact';

type Tone = 'error' | 'warning' | 'info' | 'success';

/** A message shown in place. Errors are announced at once (alert), the rest politely (status). */
export function Notice(props: { tone: Tone; children: ComponentChildren; id?: string }) {
  const role = props.tone === 'error' ? 'alert' : 'status';
  return (
    <div class={`notice notice--${props.tone}`} role={role} id={props.id}>
      {props.children}
    </div>
  );
}

/** An action's error, or nothing. */
export function ActionError(props: { error: string | null; id?: string }) {
  if (!props.error) return null;
  return (
    <Notice tone="error" id={props.id}>
      {props.error}
    </Notice>
  );
}

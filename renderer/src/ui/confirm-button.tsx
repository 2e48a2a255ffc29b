import { useLayoutEffect, useRef, useState } from 'preact/hooks';

/**
 * A destructive button that asks first, in place: the first press shows the question with
 * "Keep" focused, so a second Enter cannot destroy anything by accident.
 */
export function ConfirmButton(props: {
  label: string;
  /** Accessible name of the first button when its label alone is ambiguous ("Delete Design"). */
  ariaLabel?: string;
  question: string;
  confirmLabel: string;
  /** The safe answer; "Keep" unless the question needs its own words. */
  keepLabel?: string;
  onConfirm: () => void | Promise<void>;
  disabled?: boolean;
  small?: boolean;
}) {
  const size = props.small ? ' button--small' : '';
  const [asking, setAsking] = useState(false);
  const keepRef = useRef<HTMLButtonElement>(null);
  const openRef = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);

  // Set when the confirmed action moved focus on itself (to what comes next): it stays there.
  const focusMoved = useRef(false);

  useLayoutEffect(() => {
    if (asking) keepRef.current?.focus();
    else if (wasAsking.current && !focusMoved.current) openRef.current?.focus();
    wasAsking.current = asking;
    focusMoved.current = false;
  }, [asking]);

  if (!asking) {
    return (
      <button
        type="button"
        class={`button button--danger-quiet${size}`}
        ref={openRef}
        aria-label={props.ariaLabel}
        disabled={props.disabled}
        onClick={() => setAsking(true)}
      >
        {props.label}
      </button>
    );
  }
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of two buttons with a question, not a form field set
    <span
      class="confirm"
      role="group"
      aria-label={props.question}
      // Esc answers Keep, as it closes any question; the view around it stays open.
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.preventDefault();
        e.stopPropagation();
        setAsking(false);
      }}
    >
      <span class="confirm__question">{props.question}</span>
      {/* Keep comes first: the pointer that asked is now over it, not over the danger. */}
      <button type="button" class={`button${size}`} ref={keepRef} onClick={() => setAsking(false)}>
        {props.keepLabel ?? 'Keep'}
      </button>
      <button
        type="button"
        class={`button button--danger${size}`}
        onClick={async (e) => {
          const group = e.currentTarget.parentElement;
          await props.onConfirm();
          const active = document.activeElement;
          focusMoved.current =
            active !== null && active !== document.body && !group?.contains(active);
          setAsking(false);
        }}
      >
        {props.confirmLabel}
      </button>
    </span>
  );
}

import { useId, type ReactNode } from 'react';

// A number a person types (a reading, a target's end), with its unit beside it: the unit is always in
// sight, and part of what a screen reader hears with the field. A phone shows its number keypad.

export function ValueField(props: {
  label: ReactNode;
  unit: string;
  value: string;
  error: string | undefined;
  /** Marked wrong by a message shown elsewhere (one message for a pair of fields), which it names. */
  invalidBy?: string;
  autoFocus?: boolean;
  onChange: (value: string) => void;
  onBlur: () => void;
}) {
  const id = useId();
  return (
    <div className="mb-4 min-w-0">
      <label htmlFor={id} className="block text-small font-medium text-text">
        {props.label}
      </label>
      <div className="mt-1 flex items-center gap-2">
        <input
          id={id}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          // A reading's sheet opens on its first number: the person types it at once.
          autoFocus={props.autoFocus}
          value={props.value}
          aria-invalid={props.error || props.invalidBy ? true : undefined}
          aria-describedby={`${id}-unit${props.error ? ` ${id}-error` : ''}${props.invalidBy ? ` ${props.invalidBy}` : ''}`}
          onChange={(event) => props.onChange(event.target.value)}
          onBlur={props.onBlur}
          className={`block min-h-11 w-full min-w-0 rounded-control border bg-surface px-3 py-2 text-base text-text shadow-sm focus:outline-none focus:ring-2 focus:ring-focus ${
            props.error || props.invalidBy ? 'border-danger' : 'border-border-strong'
          }`}
        />
        <span id={`${id}-unit`} className="shrink-0 font-semibold text-text" data-testid="value-unit">
          {props.unit}
        </span>
      </div>
      {props.error ? (
        <p id={`${id}-error`} role="alert" className="mt-1 text-small text-danger">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

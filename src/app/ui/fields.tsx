import { useId, useState, type ReactNode } from 'react';
import { Eye, EyeOff } from 'lucide-react';

// Labelled inputs: every control has a visible label, and its error is announced and tied to the input
// through aria-describedby, so screen readers read the message with the field.

type BaseProps = {
  label: string;
  name: string;
  value: string;
  error?: string | undefined;
  onChange: (value: string) => void;
  onBlur?: () => void;
  required?: boolean;
  hint?: string;
};

// 44 px high (a finger's width), 16 px text (iOS zooms into anything smaller), the theme's colours.
const inputClass = (error?: string, margin = 'mt-1') =>
  `${margin} block min-h-11 w-full min-w-0 rounded-control border bg-surface px-3 py-2 text-base text-text shadow-sm placeholder:text-muted focus:outline-none focus:ring-2 focus:ring-focus ${
    error ? 'border-danger' : 'border-border-strong'
  }`;

function FieldFrame(props: {
  id: string;
  label: string;
  required?: boolean | undefined;
  error?: string | undefined;
  hint?: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className="mb-4">
      <label htmlFor={props.id} className="block text-small font-medium text-text">
        {props.label}
        {props.required ? (
          <span aria-hidden="true" className="text-danger">
            {' '}
            *
          </span>
        ) : null}
      </label>
      {props.children}
      {props.hint && !props.error ? (
        <p id={`${props.id}-hint`} className="mt-1 text-small text-muted">
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p id={`${props.id}-error`} role="alert" className="mt-1 text-small text-danger">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

type TextFieldProps = BaseProps & {
  type?: 'text' | 'email' | 'password' | 'date' | 'tel' | 'datetime-local';
  autoComplete?: string;
  placeholder?: string;
  step?: number;
  inputMode?: 'numeric' | 'text' | 'email' | 'tel';
};

/** A labelled input. With type 'password' it is a PasswordField: it gets a Show/Hide button. */
export function TextField(props: TextFieldProps) {
  if (props.type === 'password') {
    const { type: _password, ...rest } = props;
    return <PasswordField {...rest} />;
  }
  return <PlainTextField {...props} />;
}

function PlainTextField(props: TextFieldProps) {
  const id = useId();
  const describedBy = props.error ? `${id}-error` : props.hint ? `${id}-hint` : undefined;
  return (
    <FieldFrame id={id} label={props.label} required={props.required} error={props.error} hint={props.hint}>
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value}
        placeholder={props.placeholder}
        autoComplete={props.autoComplete}
        inputMode={props.inputMode}
        step={props.step}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy}
        aria-required={props.required ? true : undefined}
        onChange={(event) => props.onChange(event.target.value)}
        onBlur={props.onBlur}
        className={inputClass(props.error)}
      />
    </FieldFrame>
  );
}

export type PasswordFieldProps = BaseProps & {
  /** 'current-password' when signing in, 'new-password' when choosing one. */
  autoComplete?: string;
  placeholder?: string;
};

/**
 * A password input with a Show/Hide button beside it, so people can check what they typed on a phone keyboard.
 * The button is a real button after the input in the tab order (Tab, then Enter or Space), 44 x 44 px, and
 * its name ('Show' / 'Hide') never contains 'password', so the field's label stays the only one of that name.
 */
export function PasswordField(props: PasswordFieldProps) {
  const id = useId();
  const [shown, setShown] = useState(false);
  const describedBy = props.error ? `${id}-error` : props.hint ? `${id}-hint` : undefined;
  return (
    <FieldFrame id={id} label={props.label} required={props.required} error={props.error} hint={props.hint}>
      <div className="mt-1 flex items-stretch gap-2">
        <input
          id={id}
          name={props.name}
          type={shown ? 'text' : 'password'}
          value={props.value}
          placeholder={props.placeholder}
          autoComplete={props.autoComplete}
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={describedBy}
          aria-required={props.required ? true : undefined}
          onChange={(event) => props.onChange(event.target.value)}
          onBlur={props.onBlur}
          className={`${inputClass(props.error, 'mt-0')} flex-1`}
        />
        <button
          type="button"
          aria-controls={id}
          onClick={() => setShown((value) => !value)}
          className="inline-flex min-h-11 min-w-11 shrink-0 items-center justify-center gap-1.5 rounded-control border border-border-strong bg-surface px-3 text-small font-semibold text-text hover:bg-surface-muted focus:outline-none focus-visible:ring-2 focus-visible:ring-focus"
        >
          {shown ? (
            <EyeOff aria-hidden="true" className="h-5 w-5" />
          ) : (
            <Eye aria-hidden="true" className="h-5 w-5" />
          )}
          <span>{shown ? 'Hide' : 'Show'}</span>
        </button>
      </div>
    </FieldFrame>
  );
}

export function SelectField(
  props: BaseProps & { options: readonly { value: string; label: string }[]; placeholder?: string },
) {
  const id = useId();
  return (
    <FieldFrame id={id} label={props.label} required={props.required} error={props.error} hint={props.hint}>
      <select
        id={id}
        name={props.name}
        value={props.value}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
        onChange={(event) => props.onChange(event.target.value)}
        onBlur={props.onBlur}
        className={inputClass(props.error)}
      >
        {props.placeholder !== undefined ? <option value="">{props.placeholder}</option> : null}
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

/** A file chooser with its label and error; `onChoose` gets the chosen file (or undefined when cleared). */
export function FileField(props: {
  label: string;
  accept: string;
  error?: string | null | undefined;
  hint?: string;
  /** On a phone, open the camera (this side of it) at once instead of asking where the file is. */
  capture?: 'environment' | 'user';
  onChoose: (file: File | undefined) => void;
}) {
  const id = useId();
  return (
    <FieldFrame id={id} label={props.label} error={props.error ?? undefined} hint={props.hint}>
      <input
        id={id}
        type="file"
        accept={props.accept}
        capture={props.capture}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : props.hint ? `${id}-hint` : undefined}
        onChange={(event) => props.onChoose(event.target.files?.[0])}
        className="mt-1 block min-h-11 w-full max-w-full text-base text-text file:mr-3 file:min-h-11 file:rounded-control file:border file:border-border-strong file:bg-surface file:px-3 file:font-semibold file:text-text"
      />
    </FieldFrame>
  );
}

/** A labelled text area (notes): the same frame, error and describedby as the inputs. */
export function TextAreaField(props: BaseProps & { rows?: number; placeholder?: string }) {
  const id = useId();
  return (
    <FieldFrame id={id} label={props.label} required={props.required} error={props.error} hint={props.hint}>
      <textarea
        id={id}
        name={props.name}
        rows={props.rows ?? 3}
        value={props.value}
        placeholder={props.placeholder}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : props.hint ? `${id}-hint` : undefined}
        aria-required={props.required ? true : undefined}
        onChange={(event) => props.onChange(event.target.value)}
        onBlur={props.onBlur}
        className={inputClass(props.error)}
      />
    </FieldFrame>
  );
}

/** A checkbox with its words as its label, the whole row a 44 px target. */
export function CheckboxField({
  checked,
  onChange,
  children,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
}) {
  return (
    <label className="flex min-h-11 cursor-pointer items-center gap-3 text-text">
      <input
        type="checkbox"
        className="h-5 w-5 shrink-0 accent-primary"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      <span className="min-w-0">{children}</span>
    </label>
  );
}

import { useId, type ReactNode } from 'react';

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

const inputClass = (error?: string) =>
  `mt-1 block w-full rounded-md border px-3 py-2 text-base shadow-sm focus:outline-none focus:ring-2 focus:ring-brand-600 ${
    error ? 'border-red-600' : 'border-slate-400'
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
      <label htmlFor={props.id} className="block text-sm font-medium text-slate-800">
        {props.label}
        {props.required ? (
          <span aria-hidden="true" className="text-red-700">
            {' '}
            *
          </span>
        ) : null}
      </label>
      {props.children}
      {props.hint && !props.error ? (
        <p id={`${props.id}-hint`} className="mt-1 text-sm text-slate-600">
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p id={`${props.id}-error`} role="alert" className="mt-1 text-sm text-red-700">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

export function TextField(
  props: BaseProps & {
    type?: 'text' | 'email' | 'password' | 'date' | 'tel' | 'datetime-local';
    autoComplete?: string;
    placeholder?: string;
    step?: number;
    inputMode?: 'numeric' | 'text' | 'email' | 'tel';
  },
) {
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
  onChoose: (file: File | undefined) => void;
}) {
  const id = useId();
  return (
    <FieldFrame id={id} label={props.label} error={props.error ?? undefined} hint={props.hint}>
      <input
        id={id}
        type="file"
        accept={props.accept}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : props.hint ? `${id}-hint` : undefined}
        onChange={(event) => props.onChoose(event.target.files?.[0])}
        className="mt-1 block text-sm"
      />
    </FieldFrame>
  );
}

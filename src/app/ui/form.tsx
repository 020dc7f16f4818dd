import { useEffect, useRef, type FormEvent, type ReactNode, type RefObject } from 'react';
import { Button } from './button';
import { FormAlert } from './form-alert';
import { useSubmit } from './use-submit';

// The one submit path and frame of the app's forms: the values and their checks are use-schema-form.ts;
// here a send marks the form sent (every field's error shows), stops at the first problem and takes the
// focus there (the person hears what to fix), or runs the save once, busy while it runs, and shows why
// it failed above the buttons. The frame is a labelled form that never lets the browser check it (the
// domain's messages are the ones shown), the failure, and the buttons: at least 44 px high, Submit first,
// or in a dialog Cancel first (the choice that changes nothing) and stacked on a phone.

/** Where a refused save puts the focus: the first field marked invalid, or a part that says so itself. */
const PROBLEM = '[aria-invalid="true"], [data-field-error="true"]';

export function focusFirstProblem(form: HTMLFormElement | null): void {
  requestAnimationFrame(() => form?.querySelector<HTMLElement>(PROBLEM)?.focus());
}

/**
 * Submitting a form made with use-schema-form: `validate` judges the values (null when something is
 * wrong), `blocked` names a problem the schema does not hold (a file refused as it was chosen), `save`
 * gets the schema's output. The failure is worded by `describe` (use-submit.ts).
 */
export function useFormSubmit<Output>(
  form: { validate: <Parsed>() => Parsed | null },
  save: (values: Output) => Promise<void>,
  options: {
    blocked?: () => boolean;
    /** Why the save cannot run now (offline, for a form that needs the server), or null when it can. */
    unavailable?: () => string | null;
    describe?: (error: unknown) => string;
    onError?: (error: unknown) => void;
  } = {},
) {
  const submission = useSubmit(options.describe);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const element = event.currentTarget;
    const values = form.validate<Output>();
    if (values === null || options.blocked?.()) {
      focusFirstProblem(element);
      return;
    }
    const reason = options.unavailable?.() ?? null;
    if (reason !== null) {
      submission.setFailure(reason);
      return;
    }
    await submission.run(() => save(values), options.onError);
  };
  return { ...submission, onSubmit: (event: FormEvent<HTMLFormElement>) => void submit(event) };
}

type ActionsProps = {
  submitLabel: string;
  /** The submit's words while the save runs (the label stays when not given). */
  busyLabel?: string;
  busy?: boolean;
  /** Disabled for another reason than a save running (a reading, an upload). */
  submitDisabled?: boolean;
  onCancel?: () => void;
  cancelLabel?: string;
  /** 'dialog': Cancel first, the buttons stacked on a phone and at the end of the row from 640 px. */
  layout?: 'inline' | 'dialog';
  className?: string;
};

export function FormActions({
  submitLabel,
  busyLabel,
  busy = false,
  submitDisabled = false,
  onCancel,
  cancelLabel = 'Cancel',
  layout = 'inline',
  className = '',
}: ActionsProps) {
  const submit = (
    <Button type="submit" disabled={busy || submitDisabled}>
      {busy && busyLabel ? busyLabel : submitLabel}
    </Button>
  );
  const cancel = onCancel ? (
    <Button variant="secondary" onClick={onCancel}>
      {cancelLabel}
    </Button>
  ) : null;
  if (layout === 'dialog')
    return (
      <div className={`flex flex-col gap-3 sm:flex-row sm:justify-end *:min-h-11 ${className}`}>
        {cancel}
        {submit}
      </div>
    );
  return (
    <div className={`flex flex-wrap gap-3 ${className}`}>
      {submit}
      {cancel}
    </div>
  );
}

type FormProps = Omit<ActionsProps, 'className'> & {
  /** The form's name for screen readers ('New prescription'); a sheet's form takes the sheet's title. */
  label: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  failure?: string | null;
  /** Two columns from 640 px (a field spans both with sm:col-span-2); the failure and buttons span both. */
  columns?: 1 | 2;
  /** The focus starts in the first field (a form opened by a button, or in a sheet). */
  focusFirstField?: boolean;
  formRef?: RefObject<HTMLFormElement | null>;
  className?: string;
  children: ReactNode;
};

export function Form({
  label,
  onSubmit,
  failure = null,
  columns = 1,
  focusFirstField = false,
  formRef,
  className = '',
  children,
  ...actions
}: FormProps) {
  const ownRef = useRef<HTMLFormElement>(null);
  const ref = formRef ?? ownRef;
  // As the form opens only: later renders leave the focus where the person put it.
  useEffect(() => {
    if (focusFirstField) ref.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
  }, [focusFirstField, ref]);
  const span = columns === 2 ? 'sm:col-span-2' : '';
  return (
    <form
      ref={ref}
      noValidate
      aria-label={label}
      onSubmit={onSubmit}
      className={`${columns === 2 ? 'grid grid-cols-1 gap-x-4 sm:grid-cols-2' : ''} ${className}`.trim()}
    >
      {children}
      <FormAlert message={failure} className={span} />
      <FormActions {...actions} className={span} />
    </form>
  );
}

/** A problem of a group of controls (a fieldset's), announced as it appears, in the fields' style. */
export function GroupError({
  message,
  className = 'mt-1',
}: {
  message: string | null | undefined;
  className?: string;
}) {
  if (!message) return null;
  return (
    <p role="alert" className={`${className} text-small text-danger`}>
      {message}
    </p>
  );
}

import '../../local/zod-without-eval';
import { useCallback, useMemo, useState } from 'react';
import type { z } from 'zod';

// Form state checked against a domain schema (SPEC section 5: validation runs on change, on blur, on mount
// and on submit; the form submits only when there are no errors). Errors are computed on every change;
// they are shown for a field once it was touched, and for all fields after a submit attempt.

export type FormValues = Record<string, string>;

export function useZodForm<Values extends FormValues>(schema: z.ZodType, initial: Values) {
  const [values, setValues] = useState<Values>(initial);
  const [touched, setTouched] = useState<Partial<Record<keyof Values, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});

  const errors = useMemo(() => {
    const result = schema.safeParse(values);
    const found: Record<string, string> = {};
    if (!result.success) {
      for (const issue of result.error.issues) {
        const key = String(issue.path[0] ?? '');
        if (!(key in found)) found[key] = issue.message;
      }
    }
    return { ...serverErrors, ...found };
  }, [schema, values, serverErrors]);

  const visibleError = useCallback(
    (name: keyof Values & string) => (submitted || touched[name] ? errors[name] : undefined),
    [errors, submitted, touched],
  );

  const field = (name: keyof Values & string) => ({
    name,
    value: values[name] ?? '',
    error: visibleError(name),
    onChange: (value: string) => {
      setValues((previous) => ({ ...previous, [name]: value }));
      setServerErrors((previous) => {
        const { [name]: _dropped, ...rest } = previous;
        return rest;
      });
    },
    onBlur: () => setTouched((previous) => ({ ...previous, [name]: true })),
  });

  /** Marks the form submitted; returns the parsed values when valid, otherwise null. */
  const validate = <Output>(): Output | null => {
    setSubmitted(true);
    const result = schema.safeParse(values);
    return result.success && Object.keys(serverErrors).length === 0 ? (result.data as Output) : null;
  };

  return {
    values,
    setValues,
    errors,
    field,
    validate,
    setServerErrors,
    reset: (next: Values) => {
      setValues(next);
      setTouched({});
      setSubmitted(false);
      setServerErrors({});
    },
  };
}

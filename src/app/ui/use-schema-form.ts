import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { z } from 'zod';
import { useScreenDrawn } from './first-screen';

// Form state checked against a domain schema (SPEC section 5: validation runs on change, on blur, on mount
// and on submit; the form submits only when there are no errors). Errors are computed on every change;
// they are shown for a field once it was touched, and for all fields after a submit attempt.
//
// The schema is given, or loaded: the sign-in page paints before Zod arrives (its first load has a budget,
// tests/build/budget.mjs), so its form passes a loader, starts it once the screen is drawn
// (first-screen.ts: Zod must not compete with the page it is not needed for) or at the first
// keystroke or blur, and shows errors once it is there; a submit waits for it (`validateReady`). Forms whose page loads Zod anyway use `useZodForm`
// (use-zod-form.ts), this hook with the schema given.

export type FormValues = Record<string, string>;
/** A schema, or a way to load one (see `loadSchema`). */
export type SchemaSource = z.ZodType | (() => Promise<z.ZodType>);

/** A loader for a schema of a module the page has not loaded yet. */
export function loadSchema<Module>(
  importModule: () => Promise<Module>,
  pick: (module: Module) => z.ZodType,
): () => Promise<z.ZodType> {
  return () => importModule().then(pick);
}

export function useSchemaForm<Values extends FormValues>(source: SchemaSource, initial: Values) {
  const [values, setValues] = useState<Values>(initial);
  const [touched, setTouched] = useState<Partial<Record<keyof Values, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [loaded, setLoaded] = useState<z.ZodType | null>(null);
  const loading = useRef<Promise<z.ZodType> | null>(null);
  const schema = typeof source === 'function' ? loaded : source;
  const drawn = useScreenDrawn();

  const load = useCallback((): Promise<z.ZodType> => {
    if (typeof source !== 'function') return Promise.resolve(source);
    loading.current ??= source().then((ready) => {
      setLoaded(ready);
      return ready;
    });
    return loading.current;
  }, [source]);
  // A failed load is tried again, and reported, by the submit that needs it.
  const startLoading = useCallback(() => {
    if (typeof source === 'function')
      load().catch(() => {
        loading.current = null;
      });
  }, [source, load]);
  useEffect(() => {
    if (drawn) startLoading();
  }, [drawn, startLoading]);

  const check = useCallback(
    (against: z.ZodType | null, checked: Values) => {
      const found: Record<string, string> = {};
      const result = against?.safeParse(checked);
      if (result && !result.success) {
        for (const issue of result.error.issues) {
          const key = String(issue.path[0] ?? '');
          if (!(key in found)) found[key] = issue.message;
        }
      }
      return { ...serverErrors, ...found };
    },
    [serverErrors],
  );
  const errors = useMemo(() => check(schema, values), [check, schema, values]);

  const visibleError = useCallback(
    (name: keyof Values & string) => (submitted || touched[name] ? errors[name] : undefined),
    [errors, submitted, touched],
  );

  const field = (name: keyof Values & string) => ({
    name,
    value: values[name] ?? '',
    error: visibleError(name),
    onChange: (value: string) => {
      startLoading();
      setValues((previous) => ({ ...previous, [name]: value }));
      setServerErrors((previous) => {
        const { [name]: _dropped, ...rest } = previous;
        return rest;
      });
    },
    onBlur: () => {
      startLoading();
      setTouched((previous) => ({ ...previous, [name]: true }));
    },
  });

  const parse = <Output>(against: z.ZodType): Output | null => {
    const result = against.safeParse(values);
    return result.success && Object.keys(serverErrors).length === 0 ? (result.data as Output) : null;
  };

  /** Marks the form submitted; returns the parsed values when valid, otherwise null (also while loading). */
  const validate = <Output>(): Output | null => {
    setSubmitted(true);
    return schema ? parse<Output>(schema) : null;
  };

  /** As `validate`, after waiting for a schema still loading (rejects if it cannot be loaded). */
  const validateReady = async <Output>(): Promise<Output | null> => {
    setSubmitted(true);
    try {
      return parse<Output>(schema ?? (await load()));
    } catch (error) {
      loading.current = null;
      throw error;
    }
  };

  return {
    values,
    setValues,
    errors,
    field,
    validate,
    validateReady,
    setServerErrors,
    reset: (next: Values) => {
      setValues(next);
      setTouched({});
      setSubmitted(false);
      setServerErrors({});
    },
  };
}

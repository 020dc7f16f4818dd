import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { z } from 'zod';
import { useScreenDrawn } from './first-screen';

// The one form mechanism of the app: every form's values, its checks against a domain schema and the
// messages beside its fields go through this hook (form.tsx adds the submit path and the frame). Errors
// are computed on every change; a field shows its own once the person changed it and left it, and every
// field shows its own once a save was tried. Nothing is shown before anything is typed: an error
// appearing as the focus leaves an untouched field would move what is below it, and the tap that left
// the field (on Add, on Cancel) would miss.
//
// Values are text for text inputs, and whatever else a form holds (dose times, a checkbox, rows of
// results); the schema judges them all, and may check several fields together (a refine with a path).
//
// The schema is given, or loaded: the sign-in page paints before Zod arrives (its first load has a budget,
// tests/build/budget.mjs), so its form passes a loader, starts it once the screen is drawn
// (first-screen.ts: Zod must not compete with the page it is not needed for) or at the first
// keystroke or blur, and shows errors once it is there; a submit waits for it (`validateReady`). Forms whose page loads Zod anyway use `useZodForm`
// (use-zod-form.ts), this hook with the schema given.

export type FormValues = Record<string, string>;
/** A form's values: text for its text inputs, anything else for its other controls. */
export type AnyFormValues = Record<string, unknown>;
/** The names of a form's text values (those `field` gives input props for). */
export type TextFieldName<Values> = {
  [Name in keyof Values]: Values[Name] extends string ? Name : never;
}[keyof Values] &
  string;
/** A schema, or a way to load one (see `loadSchema`). */
export type SchemaSource = z.ZodType | (() => Promise<z.ZodType>);

/** A loader for a schema of a module the page has not loaded yet. */
export function loadSchema<Module>(
  importModule: () => Promise<Module>,
  pick: (module: Module) => z.ZodType,
): () => Promise<z.ZodType> {
  return () => importModule().then(pick);
}

export function useSchemaForm<Values extends AnyFormValues>(source: SchemaSource, initial: Values) {
  const [values, setValues] = useState<Values>(initial);
  // Left after a change: the field shows its error. A field only visited stays quiet until a save.
  const [touched, setTouched] = useState<Partial<Record<string, boolean>>>({});
  const changed = useRef(new Set<string>());
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

  /** The error to show for a field or a part of the form ('file', 'times'): once left changed, or after a save. */
  const errorOf = useCallback(
    (name: string) => (submitted || touched[name] ? errors[name] : undefined),
    [errors, submitted, touched],
  );

  /**
   * The person changed `name`: the values become `next` of them (a change may carry others along, as
   * directions carry their dose times), and the server's word about that field no longer applies.
   */
  const update = (name: keyof Values & string, next: (previous: Values) => Values) => {
    startLoading();
    changed.current.add(name);
    setValues(next);
    setServerErrors((previous) => {
      const { [name]: _dropped, ...rest } = previous;
      return rest;
    });
  };

  /** Changes one value (any kind). */
  const set = <Name extends keyof Values & string>(name: Name, value: Values[Name]) =>
    update(name, (previous) => ({ ...previous, [name]: value }));

  /** Shows a field's error now (a value heard by voice input is judged at once, as if typed and left). */
  const touch = (name: string) => setTouched((previous) => ({ ...previous, [name]: true }));

  /** The props of a text input (ui/fields.tsx) for one of the form's text values. */
  const field = (name: TextFieldName<Values>) => ({
    name,
    value: String(values[name] ?? ''),
    error: errorOf(name),
    onChange: (value: string) => set(name, value as Values[typeof name]),
    onBlur: () => {
      startLoading();
      if (changed.current.has(name)) touch(name);
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
    set,
    update,
    errors,
    errorOf,
    touch,
    field,
    validate,
    validateReady,
    setServerErrors,
    reset: (next: Values) => {
      setValues(next);
      setTouched({});
      changed.current.clear();
      setSubmitted(false);
      setServerErrors({});
    },
  };
}

import { useSchemaForm, type AnyFormValues } from './use-schema-form';
import type { z } from 'zod';

// The form hook for pages that load Zod with their schemas. The state itself lives in use-schema-form.ts,
// which the sign-in page uses with a schema it loads after its first paint.

export function useZodForm<Values extends AnyFormValues>(schema: z.ZodType, initial: Values) {
  return useSchemaForm(schema, initial);
}

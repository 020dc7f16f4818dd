import { z } from 'zod';

/**
 * The error body every API error has (src/server/routes/README.md): a message, and per-field errors when
 * there are several.
 */
export const errorBodySchema = z.object({
  message: z.string(),
  code: z.string().optional(),
  errors: z.array(z.object({ msg: z.string(), path: z.string() })).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

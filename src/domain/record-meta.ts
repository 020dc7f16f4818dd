import { z } from 'zod';

// What every change of a synced record carries besides its fields, and the receipt an answer gives in
// place of a record the caller may not read. Apart from sync.ts, so that a resource's schemas can use them
// while sync.ts reads the list of resources (resources/list.ts) without an import cycle.

/** What every mutation of a synced record says about the edit, besides its fields. */
export const editMetaSchema = z.object({
  /** The version the device edited; older than the server's means someone else changed it meanwhile. */
  base_version: z.number().int().min(0).optional(),
  /** When the person made the edit (ms since epoch, device clock; the server caps it at its own now). */
  changed_at: z.number().int().min(0).optional(),
});

/**
 * The record in the answer to a change made by someone who may change it but not read it (a caregiver
 * granted Edit and not Read): its id and new version only, none of its fields. A replayed answer about a
 * record deleted since is such a receipt too, with `deleted` (and the delete's version).
 */
export const recordReceiptSchema = z.object({
  id: z.string(),
  version: z.number(),
  deleted: z.boolean().optional(),
});
export type RecordReceipt = z.infer<typeof recordReceiptSchema>;

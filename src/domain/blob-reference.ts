// Without Zod, for the header's list of refused changes (on every first screen) as well as the sync code.

/** A file a device chose offline is referenced as `blob:<id>` until the upload answers with its key. */
export const BLOB_REFERENCE_PREFIX = 'blob:';

/** Tags the page registers and the service worker answers. */
export const BACKGROUND_SYNC_TAG = 'kincare-outbox';
export const PERIODIC_SYNC_TAG = 'kincare-nightly';

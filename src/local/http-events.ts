// What the app does when a call fails (a 401 signs out and says so, other failures are toasted),
// registered at start by the app and used by the HTTP client (http.ts). Kept apart from http.ts so the app
// can register them without loading axios before the first screen.

/** What the device kept of a person whose session ended, for the app to tell them. */
export type SessionEnded = {
  /** Their changes the server never took: kept on this device until they sign in again. */
  unsentChanges: number;
};

export type HttpEvents = {
  /** A signed-in call got 401 and the session is over (the device has already forgotten the person). */
  onUnauthorized: (ended: SessionEnded) => void;
  /** Any other failure, with the texts to show. */
  onError: (messages: string[]) => void;
};

let events: HttpEvents = { onUnauthorized: () => {}, onError: () => {} };

export function setHttpEvents(next: HttpEvents): void {
  events = next;
}

export function httpEvents(): HttpEvents {
  return events;
}

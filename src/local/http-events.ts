// What the app does when a call fails (SPEC section 8: a 401 signs out and says 'Unauthorized ', other
// failures are toasted), registered at start by the app and used by the HTTP client (http.ts). Kept apart
// from http.ts so the app can register them without loading axios before the first screen.

export type HttpEvents = {
  /** A signed-in call got 401 and the session is over (the device has already forgotten the person). */
  onUnauthorized: () => void;
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

import { STORAGE_KEYS } from '../domain/storage-keys';

// Speech (src/app/README.md): the person's preference isSpeechEnabled (kept in localStorage, as
// the theme is, and not cleared by logout), reading a text aloud through speechSynthesis, and hearing one
// phrase through SpeechRecognition. Both speak en-US. Nothing here is loaded by a first screen: the
// toasts (shell/toasts.tsx), the profile and the forms that offer voice input import it after the first
// paint.

export const SPEECH_LANGUAGE = 'en-US';

/** The product's texts, word for word (src/app/README.md). */
export const SPEECH_MESSAGES = {
  notSupported: 'Speech recognition not supported.',
  notRecognized: 'Could not recognize speech. Try again.',
} as const;

const listeners = new Set<() => void>();
// Where the choice lives when localStorage refuses it.
let memoryChoice: boolean | null = null;

export function readSpeechEnabled(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEYS.isSpeechEnabled) === 'true';
  } catch {
    return false;
  }
}

export function setSpeechEnabled(enabled: boolean): void {
  try {
    localStorage.setItem(STORAGE_KEYS.isSpeechEnabled, String(enabled));
    memoryChoice = null;
  } catch {
    // Private modes may refuse storage: the choice still holds in this page until it is closed.
    memoryChoice = enabled;
  }
  // Turned off: stop whatever is being read now, not only what comes next.
  if (!enabled) globalThis.speechSynthesis?.cancel();
  for (const listener of listeners) listener();
}

/** The preference as it is now (what useSyncExternalStore reads). */
export function speechEnabledSnapshot(): boolean {
  return memoryChoice ?? readSpeechEnabled();
}

/** Calls `listener` when the preference changes here or in another tab. */
export function subscribeSpeechEnabled(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEYS.isSpeechEnabled) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/**
 * Reads `text` aloud in en-US when speech is enabled and the browser can speak; otherwise does nothing.
 * What is being read is cancelled first: the newest message is the one that matters.
 */
export function speak(text: string): void {
  if (!speechEnabledSnapshot()) return;
  const words = text.trim();
  const synthesis = globalThis.speechSynthesis;
  if (!words || !synthesis || typeof SpeechSynthesisUtterance === 'undefined') return;
  synthesis.cancel();
  const utterance = new SpeechSynthesisUtterance(words);
  utterance.lang = SPEECH_LANGUAGE;
  synthesis.speak(utterance);
}

// The part of the Web Speech API's recognition used here (TypeScript's DOM library does not declare it).
type RecognitionResultEvent = { results: ArrayLike<ArrayLike<{ transcript: string }>> };
type Recognition = {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  maxAlternatives: number;
  onresult: ((event: RecognitionResultEvent) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onend: (() => void) | null;
  start: () => void;
  abort: () => void;
};
type RecognitionConstructor = new () => Recognition;
type SpeechWindow = {
  SpeechRecognition?: RecognitionConstructor;
  webkitSpeechRecognition?: RecognitionConstructor;
};

function recognitionConstructor(): RecognitionConstructor | null {
  const speechWindow = globalThis as SpeechWindow;
  return speechWindow.SpeechRecognition ?? speechWindow.webkitSpeechRecognition ?? null;
}

export function isRecognitionSupported(): boolean {
  return recognitionConstructor() !== null;
}

export type ListenResult = { transcript: string } | { error: string };

/**
 * Hears one phrase (en-US, final results only) and answers what was heard, or the product's text: not
 * supported when the browser has no recognition, not recognized when it fails, hears nothing or ends without
 * words.
 */
export function listen(): Promise<ListenResult> {
  const Constructor = recognitionConstructor();
  if (!Constructor) return Promise.resolve({ error: SPEECH_MESSAGES.notSupported });
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: ListenResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const notRecognized = () => settle({ error: SPEECH_MESSAGES.notRecognized });
    try {
      const recognition = new Constructor();
      recognition.lang = SPEECH_LANGUAGE;
      recognition.continuous = false;
      recognition.interimResults = false;
      recognition.maxAlternatives = 1;
      recognition.onresult = (event) => {
        const transcript = event.results[0]?.[0]?.transcript.trim() ?? '';
        if (transcript) settle({ transcript });
        else notRecognized();
      };
      recognition.onerror = notRecognized;
      // Ended with no result (silence): the person tries again.
      recognition.onend = notRecognized;
      recognition.start();
    } catch {
      notRecognized();
    }
  });
}

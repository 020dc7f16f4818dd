import { vi } from 'vitest';

// Fakes of the Web Speech APIs at the window boundary (jsdom has neither): a recording speechSynthesis and
// a SpeechRecognition whose answer each test gives, after it has seen the recognizer start.

export type Utterance = { text: string; lang: string };

export type FakeSynthesis = { spoken: Utterance[]; cancels: number };

/** A speechSynthesis that records what it is asked to say, and a SpeechSynthesisUtterance to go with it. */
export function fakeSynthesis(): FakeSynthesis {
  const record: FakeSynthesis = { spoken: [], cancels: 0 };
  class FakeUtterance {
    lang = '';
    constructor(readonly text: string) {}
  }
  vi.stubGlobal('SpeechSynthesisUtterance', FakeUtterance);
  vi.stubGlobal('speechSynthesis', {
    speak: (utterance: FakeUtterance) => record.spoken.push({ text: utterance.text, lang: utterance.lang }),
    cancel: () => {
      record.cancels += 1;
    },
  });
  return record;
}

type ResultHandler = (event: { results: { transcript: string }[][] }) => void;

export class FakeRecognition {
  static started: FakeRecognition[] = [];
  lang = '';
  continuous = true;
  interimResults = true;
  maxAlternatives = 5;
  onresult: ResultHandler | null = null;
  onerror: ((event: { error: string }) => void) | null = null;
  onend: (() => void) | null = null;
  start() {
    FakeRecognition.started.push(this);
  }
  abort() {}
  /** What the engine heard; it then ends, as engines do. */
  hear(transcript: string) {
    this.onresult?.({ results: [[{ transcript }]] });
    this.onend?.();
  }
  fail(error = 'no-speech') {
    this.onerror?.({ error });
    this.onend?.();
  }
}

/** Installs the fake recognizer under `name` (Chromium and Safari have only the webkit one). */
export function fakeRecognition(
  name: 'SpeechRecognition' | 'webkitSpeechRecognition' = 'webkitSpeechRecognition',
) {
  FakeRecognition.started = [];
  vi.stubGlobal(name, FakeRecognition);
  return FakeRecognition;
}

/** The recognizer started last (the one a test answers). */
export function lastRecognizer(): FakeRecognition {
  const last = FakeRecognition.started.at(-1);
  if (!last) throw new Error('no recognizer was started');
  return last;
}

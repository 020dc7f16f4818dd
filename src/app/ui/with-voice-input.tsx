import { Suspense, type ReactNode } from 'react';
import { lazyPart } from './lazy-part';

// A form field with voice input beside it (the lab report form, the medical history's entries). The
// microphone loads after the form, so nothing of speech is in the first screens' JavaScript; no first
// screen imports this module (tests/build/budget.mjs holds them to it).
// Without a signal before the service worker kept it, the field is simply without its microphone.
const VoiceInput = lazyPart(() => import('./voice-input-button').then((module) => module.VoiceInput));

/** A field with its microphone button beside it (when speech is enabled) and the button's message under it. */
export function WithVoiceInput(props: {
  label: string;
  onTranscript: (heard: string) => string | null;
  children: ReactNode;
}) {
  return (
    <div className="flex min-w-0 flex-wrap items-start gap-x-2">
      <div className="min-w-0 flex-1">{props.children}</div>
      <Suspense fallback={null}>
        <VoiceInput label={props.label} onTranscript={props.onTranscript} />
      </Suspense>
    </div>
  );
}

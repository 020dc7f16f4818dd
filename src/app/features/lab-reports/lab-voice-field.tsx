import { lazy, Suspense, type ReactNode } from 'react';

// The lab report form's fields with voice input. The microphone loads after the form (nothing of speech
// in the first screens' JavaScript); the row is laid out here, in the lab reports' own chunk, because a
// layout module shared with other screens would add a chunk name to the first screens' preload list.
const VoiceInput = lazy(() =>
  import('../../ui/voice-input-button').then((module) => ({ default: module.VoiceInput })),
);

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

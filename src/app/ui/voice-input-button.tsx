import { useEffect, useRef, useState } from 'react';
import { Mic } from 'lucide-react';
import { listen, speak } from '../../local/speech';
import { useSpeechEnabled } from './speech/use-speech-enabled';

// Optional voice input for text fields: a microphone button beside a field, shown only when the person
// turned speech on. It hears one phrase (en-US) and hands the words to the field, which turns them into
// its value (a date, an e-mail) or answers why it cannot. Every message is shown under the field and read
// aloud. Each form lays out the row itself (a shared layout module would be one more chunk name in the
// first screens' preload list).

type Props = {
  /** The field's visible label: the button is 'Speak the <label>'. */
  label: string;
  /** Takes what was heard; answers the message to show when it cannot be used, or null. */
  onTranscript: (transcript: string) => string | null;
};

type Heard = { kind: 'listening' } | { kind: 'problem'; message: string } | null;

/**
 * The microphone button and its message, for a row `flex flex-wrap` whose first item is the field: the
 * button sits beside the field, the message wraps under it. Nothing when speech is off. Forms load this
 * module lazily, so that speech adds nothing to the first screens' JavaScript (tests/build/budget.mjs).
 */
export function VoiceInput({ label, onTranscript }: Props) {
  const enabled = useSpeechEnabled();
  const [heard, setHeard] = useState<Heard>(null);
  // A reply that arrives after the form is gone is dropped.
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  if (!enabled) return null;
  const listening = heard?.kind === 'listening';

  const start = async () => {
    if (listening) return;
    setHeard({ kind: 'listening' });
    const result = await listen();
    if (!mounted.current) return;
    const problem = 'error' in result ? result.error : onTranscript(result.transcript);
    setHeard(problem === null ? null : { kind: 'problem', message: problem });
    if (problem !== null) speak(problem);
  };

  return (
    <>
      <VoiceInputButton label={label} listening={listening} onPress={() => void start()} />
      {heard ? (
        <p
          role={heard.kind === 'problem' ? 'alert' : 'status'}
          className={`-mt-3 mb-4 basis-full text-small ${heard.kind === 'problem' ? 'text-danger' : 'text-muted'}`}
        >
          {heard.kind === 'problem' ? heard.message : 'Listening…'}
        </p>
      ) : null}
    </>
  );
}

/**
 * The microphone button: 44 x 44, named after its field, pressed (aria-pressed) while it listens. Sits
 * level with the field's input (below the field's label).
 */
export function VoiceInputButton({
  label,
  listening,
  onPress,
}: {
  label: string;
  listening: boolean;
  onPress: () => void;
}) {
  return (
    <button
      type="button"
      aria-label={`Speak the ${label}`}
      aria-pressed={listening}
      title={listening ? 'Listening…' : `Speak the ${label}`}
      onClick={onPress}
      className={`mt-6 inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-control border focus:outline-none focus-visible:ring-2 focus-visible:ring-focus ${
        listening
          ? 'border-primary bg-primary text-primary-on'
          : 'border-border-strong bg-surface text-text hover:bg-surface-muted'
      }`}
    >
      <Mic aria-hidden="true" className={`h-5 w-5 ${listening ? 'animate-pulse' : ''}`} />
    </button>
  );
}

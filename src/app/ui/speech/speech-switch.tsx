import { setSpeechEnabled } from '../../../local/speech';
import { useSpeechEnabled } from './use-speech-enabled';

/**
 * The speech preference (isSpeechEnabled): on, messages and toasts are read aloud in en-US and text inputs
 * offer voice input. One switch, the whole row is the 44 px target; kept on this device.
 */
export function SpeechSwitch() {
  const enabled = useSpeechEnabled();
  return (
    <div className="mt-6">
      <button
        type="button"
        role="switch"
        aria-checked={enabled}
        aria-describedby="speech-switch-hint"
        onClick={() => setSpeechEnabled(!enabled)}
        className="flex min-h-11 w-full items-center justify-between gap-3 rounded-control px-1 text-left text-base font-semibold text-text hover:bg-surface-muted focus:outline-none focus-visible:ring-2 focus-visible:ring-focus"
      >
        <span>Read messages aloud</span>
        <span
          aria-hidden="true"
          className={`relative inline-flex h-7 w-12 shrink-0 items-center rounded-full border transition-colors ${
            enabled ? 'border-primary bg-primary' : 'border-border-strong bg-surface-muted'
          }`}
        >
          <span
            className={`inline-block h-5 w-5 rounded-full bg-surface shadow transition-transform ${
              enabled ? 'translate-x-6' : 'translate-x-1'
            }`}
          />
        </span>
      </button>
      <p id="speech-switch-hint" className="mt-1 text-small text-muted">
        Messages are read aloud, and text fields offer a microphone button for voice input.
      </p>
    </div>
  );
}

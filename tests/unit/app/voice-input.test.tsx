import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import toast from 'react-hot-toast';
import { VoiceInput } from '../../../src/app/ui/voice-input-button';
import { SpeechSwitch } from '../../../src/app/ui/speech/speech-switch';
import { SpokenToasts } from '../../../src/app/ui/speech/spoken-toasts';
import { InviteForm } from '../../../src/app/features/care-giver/invite-form';
import { setSpeechEnabled } from '../../../src/local/speech';
import { STORAGE_KEYS } from '../../../src/domain/storage-keys';
import { fakeRecognition, fakeSynthesis, lastRecognizer, type FakeSynthesis } from '../local/speech-fakes';

// Speech in the interface: the microphone button (only when speech is enabled; 'Listening…' while it
// hears; the product's texts when recognition is missing or fails), the invite form's spoken e-mail, the
// profile's switch, and toasts read aloud (only when enabled). The Web Speech APIs are fakes on window.

let synthesis: FakeSynthesis;
const online = vi.spyOn(navigator, 'onLine', 'get');
beforeEach(() => {
  localStorage.clear();
  online.mockReturnValue(true);
  synthesis = fakeSynthesis();
});
afterEach(() => {
  cleanup();
  act(() => toast.remove());
  vi.unstubAllGlobals();
});
afterAll(() => online.mockRestore());

function Field({ onTranscript }: { onTranscript: (heard: string) => string | null }) {
  return (
    <div className="flex flex-wrap">
      <label>
        Report Type <input name="report_type" />
      </label>
      <VoiceInput label="Report Type" onTranscript={onTranscript} />
    </div>
  );
}

const mic = (name = 'Speak the Report Type') => screen.getByRole('button', { name });

describe('VoiceInput', () => {
  it('is not there while speech is disabled', () => {
    render(<Field onTranscript={() => null} />);
    expect(screen.queryByRole('button', { name: 'Speak the Report Type' })).toBeNull();
  });

  it('appears when speech is enabled, says it is listening, and hands over what was heard', async () => {
    fakeRecognition();
    const heard = vi.fn(() => null);
    render(<Field onTranscript={heard} />);
    act(() => setSpeechEnabled(true));
    expect(mic().getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(mic());
    expect(mic().getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('status').textContent).toBe('Listening…');
    await act(async () => lastRecognizer().hear('Blood test'));
    expect(heard).toHaveBeenCalledWith('Blood test');
    expect(mic().getAttribute('aria-pressed')).toBe('false');
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("shows and reads the field's answer when the words cannot be used", async () => {
    fakeRecognition();
    setSpeechEnabled(true);
    render(<Field onTranscript={() => "Couldn't understand the date. Please try again."} />);
    fireEvent.click(mic());
    await act(async () => lastRecognizer().hear('banana'));
    expect(screen.getByRole('alert').textContent).toBe("Couldn't understand the date. Please try again.");
    expect(synthesis.spoken.at(-1)).toEqual({
      text: "Couldn't understand the date. Please try again.",
      lang: 'en-US',
    });
  });

  it("says 'Speech recognition not supported.' where the browser has no recognizer", async () => {
    setSpeechEnabled(true);
    const heard = vi.fn(() => null);
    render(<Field onTranscript={heard} />);
    fireEvent.click(mic());
    expect((await screen.findByRole('alert')).textContent).toBe('Speech recognition not supported.');
    expect(heard).not.toHaveBeenCalled();
  });

  it("says 'Could not recognize speech. Try again.' when recognition fails", async () => {
    fakeRecognition();
    setSpeechEnabled(true);
    render(<Field onTranscript={() => null} />);
    fireEvent.click(mic());
    await act(async () => lastRecognizer().fail());
    expect(screen.getByRole('alert').textContent).toBe('Could not recognize speech. Try again.');
  });
});

describe('the invite form, spoken', () => {
  it('puts a spoken address in the e-mail field, and refuses what is not one', async () => {
    fakeRecognition();
    setSpeechEnabled(true);
    render(<InviteForm />);
    const email = () => screen.getByRole('textbox', { name: 'Caregiver email' }) as HTMLInputElement;
    fireEvent.click(await screen.findByRole('button', { name: 'Speak the Caregiver email' }));
    await act(async () => lastRecognizer().hear('Jane dot Doe at example dot com'));
    expect(email().value).toBe('jane.doe@example.com');

    fireEvent.click(screen.getByRole('button', { name: 'Speak the Caregiver email' }));
    await act(async () => lastRecognizer().hear('hello there'));
    expect(email().value).toBe('jane.doe@example.com');
    expect(screen.getByRole('alert').textContent).toBe('Could not recognize speech. Try again.');
  });
});

describe('SpeechSwitch', () => {
  it("turns 'Read messages aloud' on and off, kept as isSpeechEnabled", () => {
    render(<SpeechSwitch />);
    const speech = screen.getByRole('switch', { name: 'Read messages aloud' });
    expect(speech.getAttribute('aria-checked')).toBe('false');
    fireEvent.click(speech);
    expect(speech.getAttribute('aria-checked')).toBe('true');
    expect(localStorage.getItem(STORAGE_KEYS.isSpeechEnabled)).toBe('true');
    fireEvent.click(speech);
    expect(localStorage.getItem(STORAGE_KEYS.isSpeechEnabled)).toBe('false');
  });
});

describe('SpokenToasts', () => {
  it('reads nothing while speech is disabled', async () => {
    render(<SpokenToasts />);
    act(() => {
      toast.success('Profile updated successfully');
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(synthesis.spoken).toEqual([]);
  });

  it('reads success and error toasts, the words of a toast with a link too, and a repeated one again', async () => {
    setSpeechEnabled(true);
    render(<SpokenToasts />);
    act(() => {
      toast.success('Profile updated successfully');
    });
    await waitFor(() =>
      expect(synthesis.spoken.map((said) => said.text)).toEqual(['Profile updated successfully']),
    );
    act(() => {
      toast.error(
        <span>
          You have reached your plan&apos;s limit. <a href="/subscription">Open Subscription</a>
        </span>,
        { id: 'limit' },
      );
    });
    await waitFor(() =>
      expect(synthesis.spoken.at(-1)?.text).toBe("You have reached your plan's limit. Open Subscription"),
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    act(() => {
      toast.error('Network error', { id: 'network' });
    });
    await waitFor(() => expect(synthesis.spoken.at(-1)?.text).toBe('Network error'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    act(() => {
      toast.error('Network error', { id: 'network' });
    });
    await waitFor(() =>
      expect(synthesis.spoken.filter((said) => said.text === 'Network error')).toHaveLength(2),
    );
    expect(synthesis.spoken.every((said) => said.lang === 'en-US')).toBe(true);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  listen,
  readSpeechEnabled,
  setSpeechEnabled,
  speak,
  SPEECH_MESSAGES,
  subscribeSpeechEnabled,
} from '../../../src/local/speech';
import { STORAGE_KEYS } from '../../../src/domain/storage-keys';
import {
  fakeRecognition,
  fakeSynthesis,
  FakeRecognition,
  lastRecognizer,
  type FakeSynthesis,
} from './speech-fakes';

// local/speech.ts: the isSpeechEnabled preference, reading aloud (never while disabled), and hearing one
// phrase, with the product's texts (src/app/README.md) when recognition is missing or fails.

let synthesis: FakeSynthesis;
beforeEach(() => {
  localStorage.clear();
  synthesis = fakeSynthesis();
});
afterEach(() => vi.unstubAllGlobals());

describe('the preference', () => {
  it('is off until chosen, and is kept under isSpeechEnabled', () => {
    expect(readSpeechEnabled()).toBe(false);
    setSpeechEnabled(true);
    expect(localStorage.getItem(STORAGE_KEYS.isSpeechEnabled)).toBe('true');
    expect(readSpeechEnabled()).toBe(true);
    setSpeechEnabled(false);
    expect(localStorage.getItem(STORAGE_KEYS.isSpeechEnabled)).toBe('false');
    expect(readSpeechEnabled()).toBe(false);
  });

  it('tells its listeners, here and when another tab changes it', () => {
    const changed = vi.fn();
    const stop = subscribeSpeechEnabled(changed);
    setSpeechEnabled(true);
    expect(changed).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new StorageEvent('storage', { key: STORAGE_KEYS.isSpeechEnabled }));
    expect(changed).toHaveBeenCalledTimes(2);
    window.dispatchEvent(new StorageEvent('storage', { key: 'theme' }));
    expect(changed).toHaveBeenCalledTimes(2);
    stop();
    setSpeechEnabled(false);
    expect(changed).toHaveBeenCalledTimes(2);
  });
});

describe('speak', () => {
  it('says nothing while speech is disabled', () => {
    speak('Profile updated successfully');
    expect(synthesis.spoken).toEqual([]);
  });

  it('reads the text in en-US when enabled, cancelling what was being read', () => {
    setSpeechEnabled(true);
    speak('  Lab report uploaded successfully ');
    expect(synthesis.spoken).toEqual([{ text: 'Lab report uploaded successfully', lang: 'en-US' }]);
    const cancelsBefore = synthesis.cancels;
    speak('Could not recognize speech. Try again.');
    expect(synthesis.cancels).toBe(cancelsBefore + 1);
    expect(synthesis.spoken.at(-1)).toEqual({
      text: 'Could not recognize speech. Try again.',
      lang: 'en-US',
    });
    speak('   ');
    expect(synthesis.spoken).toHaveLength(2);
  });

  it('stops reading when speech is turned off', () => {
    setSpeechEnabled(true);
    const cancelsBefore = synthesis.cancels;
    setSpeechEnabled(false);
    expect(synthesis.cancels).toBe(cancelsBefore + 1);
  });

  it('does nothing where the browser cannot speak', () => {
    setSpeechEnabled(true);
    vi.stubGlobal('speechSynthesis', undefined);
    expect(() => speak('Hello')).not.toThrow();
  });
});

describe('listen', () => {
  it("says 'Speech recognition not supported.' where there is no recognizer", async () => {
    await expect(listen()).resolves.toEqual({ error: SPEECH_MESSAGES.notSupported });
    expect(SPEECH_MESSAGES.notSupported).toBe('Speech recognition not supported.');
  });

  it('hears one final phrase in en-US through the webkit recognizer', async () => {
    fakeRecognition('webkitSpeechRecognition');
    const heard = listen();
    const recognizer = lastRecognizer();
    expect(recognizer).toMatchObject({
      lang: 'en-US',
      continuous: false,
      interimResults: false,
      maxAlternatives: 1,
    });
    recognizer.hear(' Blood test ');
    await expect(heard).resolves.toEqual({ transcript: 'Blood test' });
  });

  it('prefers the standard SpeechRecognition when there is one', async () => {
    fakeRecognition('SpeechRecognition');
    const heard = listen();
    lastRecognizer().hear('March fifth twenty twenty six');
    await expect(heard).resolves.toEqual({ transcript: 'March fifth twenty twenty six' });
  });

  it("says 'Could not recognize speech. Try again.' on an error, on silence, or on no words", async () => {
    expect(SPEECH_MESSAGES.notRecognized).toBe('Could not recognize speech. Try again.');
    fakeRecognition();
    const failed = listen();
    lastRecognizer().fail('network');
    await expect(failed).resolves.toEqual({ error: SPEECH_MESSAGES.notRecognized });

    const silent = listen();
    lastRecognizer().onend?.();
    await expect(silent).resolves.toEqual({ error: SPEECH_MESSAGES.notRecognized });

    const empty = listen();
    lastRecognizer().hear('  ');
    await expect(empty).resolves.toEqual({ error: SPEECH_MESSAGES.notRecognized });
  });

  it('answers not recognized when the recognizer refuses to start', async () => {
    fakeRecognition();
    vi.spyOn(FakeRecognition.prototype, 'start').mockImplementation(() => {
      throw new Error('InvalidStateError');
    });
    await expect(listen()).resolves.toEqual({ error: SPEECH_MESSAGES.notRecognized });
    vi.restoreAllMocks();
  });
});

import { useSyncExternalStore } from 'react';
import { speechEnabledSnapshot, subscribeSpeechEnabled } from '../../../local/speech';

/** Whether the person turned speech on (isSpeechEnabled), following changes here and in other tabs. */
export function useSpeechEnabled(): boolean {
  return useSyncExternalStore(subscribeSpeechEnabled, speechEnabledSnapshot);
}

/** The local storage keys of SPEC section 3 (sections 4 and 9 say which ones logout clears). */
export const STORAGE_KEYS = {
  token: 'token',
  role: 'role',
  healthCheckinDone: 'healthCheckinDone',
  selectedPatientId: 'selectedPatientId',
  isSpeechEnabled: 'isSpeechEnabled',
} as const;

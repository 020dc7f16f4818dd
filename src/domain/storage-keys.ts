/** The local storage keys (README.md beside this file says which ones logout clears). */
export const STORAGE_KEYS = {
  token: 'token',
  role: 'role',
  healthCheckinDone: 'healthCheckinDone',
  selectedPatientId: 'selectedPatientId',
  isSpeechEnabled: 'isSpeechEnabled',
} as const;

/**
 * Choices about this device's display, kept across sign-ins (logout does not clear them): whether the
 * sidebar is collapsed, and the colour theme ('system', 'light' or 'dark').
 */
export const DISPLAY_KEYS = {
  sidebarCollapsed: 'sidebarCollapsed',
  theme: 'theme',
} as const;

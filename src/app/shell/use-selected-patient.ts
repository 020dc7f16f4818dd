import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '../../domain/storage-keys';

// The caregiver's selected patient (localStorage key selectedPatientId, SPEC section 3).

const listeners = new Set<() => void>();

export function setSelectedPatientId(patientId: string | null): void {
  if (patientId) localStorage.setItem(STORAGE_KEYS.selectedPatientId, patientId);
  else localStorage.removeItem(STORAGE_KEYS.selectedPatientId);
  for (const listener of listeners) listener();
}

export function useSelectedPatientId(): string | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      window.addEventListener('storage', listener);
      return () => {
        listeners.delete(listener);
        window.removeEventListener('storage', listener);
      };
    },
    () => localStorage.getItem(STORAGE_KEYS.selectedPatientId),
  );
}

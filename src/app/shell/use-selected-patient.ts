import { useEffect, useSyncExternalStore } from 'react';
import { useLocation, useNavigate } from '@tanstack/react-router';
import { useLiveQuery } from 'dexie-react-hooks';
import type { AssociatedPatientEntry } from '../../domain/caregivers';
import { requiredPermissionFor } from '../../domain/permissions';
import { STORAGE_KEYS } from '../../domain/storage-keys';
import { hasUserDb, userDb } from '../../local/db';

// The caregiver's selected patient (localStorage key selectedPatientId), and the patients
// they may select: the replica's copy of GET /request/associate-patients, refreshed on every sync cycle.

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

/** The caregiver's linked patients by name (undefined while the replica is read). */
export function useAssociatedPatients(): AssociatedPatientEntry[] | undefined {
  return useLiveQuery(
    async () =>
      hasUserDb()
        ? (await userDb().associatedPatients.toArray()).sort((a, b) => a.name.localeCompare(b.name))
        : [],
    [],
  );
}

/** What the selection should become given the linked patients now, and where a screen must go. */
export function selectionUpkeep(
  selected: string | null,
  patients: readonly Pick<AssociatedPatientEntry, 'patient_id' | 'permissions'>[],
  pathname: string,
): { select?: string | null; goTo?: '/caregiver/dashboard' | '/unauthorized' } {
  const needed = requiredPermissionFor(pathname);
  const link = selected ? patients.find((patient) => patient.patient_id === selected) : undefined;
  if (selected && !link) {
    // The link was removed (by either side): the patient is no longer selectable, and their screens go.
    return { select: null, ...(needed ? { goTo: '/caregiver/dashboard' } : {}) };
  }
  if (!selected && patients.length === 1) return { select: patients[0]?.patient_id ?? null };
  if (!selected && needed) return { goTo: '/caregiver/dashboard' };
  if (needed && link && !link.permissions.includes(needed)) return { goTo: '/unauthorized' };
  return {};
}

/**
 * Keeps the selection true to the replica (src/local/README.md): a patient whose link is gone stops being
 * selected, a screen whose Read permission was withdrawn is left at once, and a caregiver with exactly one
 * patient has them selected. Used once, by the caregiver's header.
 */
export function useSelectionUpkeep(patients: readonly AssociatedPatientEntry[] | undefined): void {
  const selected = useSelectedPatientId();
  const pathname = useLocation({ select: (location) => location.pathname });
  const navigate = useNavigate();
  useEffect(() => {
    if (!patients) return;
    const { select, goTo } = selectionUpkeep(selected, patients, pathname);
    if (select !== undefined) setSelectedPatientId(select);
    if (goTo) void navigate({ to: goTo, replace: true });
  }, [patients, selected, pathname, navigate]);
}

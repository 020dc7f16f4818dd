import { useLiveQuery } from 'dexie-react-hooks';
import { hasUserDb, userDb } from '../../local/db';
import { isPermission, type Permission } from '../../domain/permissions';
import { useSelectedPatientId } from './use-selected-patient';

/** The permissions the caregiver holds on the selected patient, from the local replica. */
export function useCaregiverPermissions(): Permission[] {
  const selected = useSelectedPatientId();
  return (
    useLiveQuery(async () => {
      if (!selected || !hasUserDb()) return [];
      const link = await userDb().associatedPatients.get(selected);
      return (link?.permissions ?? []).filter(isPermission);
    }, [selected]) ?? []
  );
}

import { useLiveQuery } from 'dexie-react-hooks';
import { hasUserDb, userDb } from '../../local/db';
import { isPermission, type Permission } from '../../domain/permissions';
import { useSelectedPatientId } from './use-selected-patient';

/**
 * The permissions the caregiver holds on the selected patient, from the local replica; undefined until the
 * replica has answered for this patient (a screen that must not show 'no access' first waits for it).
 */
export function useCaregiverPermissionsRead(): Permission[] | undefined {
  const selected = useSelectedPatientId();
  const answer = useLiveQuery(async () => {
    if (!selected || !hasUserDb()) return { selected, held: [] };
    const link = await userDb().associatedPatients.get(selected);
    return { selected, held: (link?.permissions ?? []).filter(isPermission) };
  }, [selected]);
  return answer?.selected === selected ? answer.held : undefined;
}

/** The permissions the caregiver holds on the selected patient, from the local replica (none until read). */
export function useCaregiverPermissions(): Permission[] {
  return useCaregiverPermissionsRead() ?? [];
}

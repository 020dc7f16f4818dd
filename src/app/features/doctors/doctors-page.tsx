import { useCallback, useMemo, useState } from 'react';
import toast from 'react-hot-toast';
import type { DirectoryDoctor } from '../../../domain/directory';
import { MY_DOCTOR_MESSAGES, type DoctorProfile } from '../../../domain/doctors';
import { userDb, type LocalDoctor } from '../../../local/db';
import { addDoctor, removeDoctor } from '../../../local/doctors';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Card, PageTitle } from '../../ui/page';
import { DoctorProfileSheet } from './doctor-profile';
import { DoctorSearch } from './doctor-search';
import { MyDoctors } from './my-doctors';
import { useMyDoctors } from './use-my-doctors';

// /doctors and /caregiver/doctors: the patient's doctors from the device's table (offline too), and the
// directory search to add more. What a caregiver sees and may do follows their permissions on the
// selected patient (ReadDoctor to see the list, AddDoctors, DeleteDoctor, ViewDoctorProfile).

export type DoctorAbilities = { add: boolean; delete: boolean; profile: boolean };
type Props = { patientId: string | null; caregiverId: string | null; can: DoctorAbilities };

export function DoctorsPage({ patientId, caregiverId, can }: Props) {
  const doctors = useMyDoctors(patientId);
  const [profile, setProfile] = useState<DoctorProfile | null>(null);
  const [removing, setRemoving] = useState<LocalDoctor | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const clearFocus = useCallback(() => setFocusId(null), []);
  const listed = useMemo(() => new Set((doctors ?? []).map((doctor) => doctor.doctor_id)), [doctors]);

  if (!patientId) {
    return (
      <>
        <PageTitle>Doctors</PageTitle>
        <Card>
          <p>Please select patient.</p>
        </Card>
      </>
    );
  }

  const add = async (doctor: DirectoryDoctor) => {
    try {
      await addDoctor(userDb(), { patient_id: patientId, caregiver_id: caregiverId, doctor });
      toast.success(MY_DOCTOR_MESSAGES.added);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'The doctor could not be added.');
    }
  };

  const confirmRemove = async () => {
    if (!removing || !doctors) return;
    // Focus then goes to the next entry (or the one before), or to the heading when the list is empty.
    const index = doctors.findIndex((doctor) => doctor.id === removing.id);
    const neighbour = doctors[index + 1] ?? doctors[index - 1] ?? null;
    await removeDoctor(userDb(), removing.id);
    setRemoving(null);
    toast.success(MY_DOCTOR_MESSAGES.removed);
    if (neighbour) setFocusId(neighbour.id);
    else requestAnimationFrame(() => document.getElementById('my-doctors-heading')?.focus());
  };

  const findDoctor = () => {
    const field = document.querySelector<HTMLElement>('#find-a-doctor input');
    field?.scrollIntoView({ block: 'center' });
    field?.focus();
  };

  return (
    <>
      <PageTitle description="Your doctors, on this device even without a signal.">Doctors</PageTitle>
      <MyDoctors
        doctors={doctors}
        canOpen={can.profile}
        canRemove={can.delete}
        onFindDoctor={can.add ? findDoctor : null}
        onOpen={setProfile}
        onRemove={setRemoving}
        focusId={focusId}
        onFocused={clearFocus}
      />
      {can.add ? (
        <DoctorSearch listed={listed} canOpen={can.profile} onOpen={setProfile} onAdd={add} />
      ) : null}
      <DoctorProfileSheet doctor={profile} onClose={() => setProfile(null)} />
      <ConfirmDialog
        open={removing !== null}
        title="Remove doctor"
        message={`Remove ${removing?.name ?? 'this doctor'} from the list of doctors? They can be added again from the search.`}
        confirmLabel="Remove"
        onConfirm={() => void confirmRemove()}
        onClose={() => setRemoving(null)}
      />
    </>
  );
}

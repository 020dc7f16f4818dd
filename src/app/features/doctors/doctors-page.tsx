import { useState } from 'react';
import toast from 'react-hot-toast';
import { Stethoscope } from 'lucide-react';
import {
  DOCTOR_PAGE_SIZE,
  doctorSearchQuerySchema,
  NEARBY_MILES,
  SEARCH_MILES,
  SPECIALITIES,
  type DirectoryDoctor,
} from '../../../domain/directory';
import { MY_DOCTOR_MESSAGES, type DoctorProfile } from '../../../domain/doctors';
import { userDb, type LocalDoctor } from '../../../local/db';
import { addDoctor, removeDoctor, searchDoctors } from '../../../local/doctors';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { DirectorySearch, type SearchField } from '../../ui/directory/directory-search';
import { MyEntries } from '../../ui/directory/my-entries';
import { nearbyNoMatches, type NoMatchesAdvice } from '../../ui/directory/no-matches-advice';
import { goToSearch, useDirectoryList } from '../../ui/directory/use-directory-list';
import { NoPatientSelected, PageTitle } from '../../ui/page';
import { DoctorEntry, DoctorResult } from './doctor-parts';
import { DoctorProfileSheet } from './doctor-profile';
import { useMyDoctors } from './use-my-doctors';

// /doctors and /caregiver/doctors: the patient's doctors from the device's table (offline too), and the
// directory search to add more (nearest first after a zip, 5 a page): the provider pattern of
// ui/directory, configured for doctors, who have a profile. What a caregiver sees and may do follows their
// permissions on the selected patient (ReadDoctor to see the list, AddDoctors, DeleteDoctor,
// ViewDoctorProfile).

export type DoctorAbilities = { add: boolean; delete: boolean; profile: boolean };
type Props = { patientId: string | null; caregiverId: string | null; can: DoctorAbilities };

type Criteria = { name: string; speciality: string; zip: string; miles: string };
const EMPTY: Criteria = { name: '', speciality: '', zip: '', miles: String(NEARBY_MILES) };
const SEARCH_ID = 'find-a-doctor';
const HEADING_ID = 'my-doctors-heading';
const FIELDS: readonly SearchField<Criteria>[] = [
  { name: 'name', label: 'Name', placeholder: 'e.g. Cohen' },
  {
    name: 'speciality',
    label: 'Specialty',
    placeholder: 'All specialities',
    options: SPECIALITIES.map((speciality) => ({ value: speciality, label: speciality })),
  },
  {
    name: 'zip',
    label: 'Zip code',
    inputMode: 'numeric',
    autoComplete: 'postal-code',
    placeholder: 'e.g. 10001',
    hint: 'Nearest first',
  },
  {
    name: 'miles',
    label: 'Distance',
    options: SEARCH_MILES.map((miles) => ({ value: String(miles), label: `Within ${miles} miles` })),
    hint: 'From the zip code',
  },
];

/** A search that found nothing: where it looked and what to try (see ui/directory/no-matches-advice.ts). */
function noDoctorsFound(searched: Criteria): NoMatchesAdvice {
  const filtered = searched.name.trim() !== '' || searched.speciality !== '';
  if (searched.zip.trim() !== '') {
    return nearbyNoMatches({
      many: 'doctors',
      zip: searched.zip.trim(),
      miles: Number(searched.miles) || NEARBY_MILES,
      clearFilters: filtered ? 'Leave the name and the specialty empty to see every doctor nearby.' : null,
    });
  }
  return {
    title: 'No doctors match this search.',
    tips: [
      'Check the spelling, or type only part of the name.',
      'Choose another specialty, or leave it empty.',
      'Add your zip code to see the doctors near you.',
    ],
  };
}

const search = (criteria: Criteria, page: number, signal: AbortSignal) =>
  searchDoctors({ ...criteria, page, limit: DOCTOR_PAGE_SIZE }, { signal });
const directoryIdOf = (doctor: { doctor_id: string }) => doctor.doctor_id;

export function DoctorsPage({ patientId, caregiverId, can }: Props) {
  const doctors = useMyDoctors(patientId);
  const list = useDirectoryList({
    entries: doctors,
    directoryIdOf,
    headingId: HEADING_ID,
    remove: (doctor: LocalDoctor) => removeDoctor(userDb(), doctor.id),
    removedMessage: MY_DOCTOR_MESSAGES.removed,
  });
  const [profile, setProfile] = useState<DoctorProfile | null>(null);

  if (!patientId) return <NoPatientSelected title="Doctors" />;

  const add = async (doctor: DirectoryDoctor) => {
    try {
      await addDoctor(userDb(), { patient_id: patientId, caregiver_id: caregiverId, doctor });
      toast.success(MY_DOCTOR_MESSAGES.added);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'The doctor could not be added.');
    }
  };

  return (
    <>
      <PageTitle description="Your doctors, on this device even without a signal.">Doctors</PageTitle>
      <MyEntries
        title="My doctors"
        headingId={HEADING_ID}
        entries={doctors}
        keyOf={(doctor) => doctor.id}
        itemAttributes={(doctor) => ({ 'data-doctor-entry': doctor.id })}
        cardClassName="flex flex-wrap items-center justify-between gap-3"
        empty={{
          icon: <Stethoscope />,
          title: 'No doctors in your list yet.',
          text: can.add
            ? 'Search the directory below and add your doctors: their addresses and phone numbers then stay on this device, even without a signal.'
            : 'When doctors are added to this list, they show here.',
        }}
        find={can.add ? { label: 'Find a doctor', onFind: () => goToSearch(SEARCH_ID) } : null}
        focusKey={list.focusId}
        onFocused={list.clearFocus}
      >
        {(doctor) => (
          <DoctorEntry
            doctor={doctor}
            canOpen={can.profile}
            canRemove={can.delete}
            onOpen={setProfile}
            onRemove={list.askRemove}
          />
        )}
      </MyEntries>
      {can.add ? (
        <DirectorySearch
          id={SEARCH_ID}
          title="Find a doctor"
          offlineMessage={MY_DOCTOR_MESSAGES.searchOffline}
          fields={FIELDS}
          empty={EMPTY}
          schema={doctorSearchQuerySchema}
          search={search}
          idOf={directoryIdOf}
          nameOf={(doctor) => doctor.name}
          noun={{ one: 'doctor', many: 'doctors' }}
          noMatches={noDoctorsFound}
          renderResult={(doctor, searched) => (
            <DoctorResult
              doctor={doctor}
              searchedByZip={searched.zip.trim() !== ''}
              onOpen={can.profile ? setProfile : null}
            />
          )}
          listed={list.listed}
          onAdd={add}
        />
      ) : null}
      <DoctorProfileSheet doctor={profile} onClose={() => setProfile(null)} />
      <ConfirmDialog
        open={list.removing !== null}
        title="Remove doctor"
        message={`Remove ${list.removing?.name ?? 'this doctor'} from the list of doctors? They can be added again from the search.`}
        confirmLabel="Remove"
        onConfirm={list.confirmRemove}
        onClose={list.cancelRemove}
      />
    </>
  );
}

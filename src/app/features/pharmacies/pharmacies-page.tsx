import toast from 'react-hot-toast';
import { Store } from 'lucide-react';
import {
  DOCTOR_PAGE_SIZE,
  NEARBY_MILES,
  pharmacySearchQuerySchema,
  SEARCH_MILES,
  type DirectoryPharmacy,
} from '../../../domain/directory';
import { MY_PHARMACY_MESSAGES, type MyPharmacy } from '../../../domain/pharmacies';
import { userDb } from '../../../local/db';
import { addPharmacy, makePreferred, removePharmacy, searchPharmacies } from '../../../local/pharmacies';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { DirectorySearch, type SearchField } from '../../ui/directory/directory-search';
import { MyEntries } from '../../ui/directory/my-entries';
import { nearbyNoMatches, type NoMatchesAdvice } from '../../ui/directory/no-matches-advice';
import { goToSearch, useDirectoryList } from '../../ui/directory/use-directory-list';
import { NoPatientSelected, PageTitle } from '../../ui/page';
import { PharmacyEntry, PharmacyResult } from './pharmacy-parts';
import { useMyPharmacies } from './use-my-pharmacies';

// /pharmacies and /caregiver/pharmacies: the patient's pharmacies from the device's table (offline too),
// the preferred one first, and the directory search near a zip and/or by name (5 a page): the provider
// pattern of ui/directory, configured for pharmacies, which have a preferred one. Only the patient changes
// the list (add, make preferred, remove); a caregiver with Read Pharmacy sees it, and with Search Pharmacy
// may search the directory to look up a phone or address, without Add.

export type PharmacyAbilities = { change: boolean; search: boolean };
type Props = { patientId: string | null; can: PharmacyAbilities };

type Criteria = { zip: string; miles: string; name: string };
const EMPTY: Criteria = { zip: '', miles: String(NEARBY_MILES), name: '' };
const SEARCH_ID = 'find-a-pharmacy';
const HEADING_ID = 'my-pharmacies-heading';
const FIELDS: readonly SearchField<Criteria>[] = [
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
  { name: 'name', label: 'Name', placeholder: 'e.g. Walgreens', hint: 'A zip code, a name, or both' },
];

/** A search that found nothing: where it looked and what to try (see ui/directory/no-matches-advice.ts). */
function noPharmaciesFound(searched: Criteria): NoMatchesAdvice {
  if (searched.zip.trim() !== '') {
    return nearbyNoMatches({
      many: 'pharmacies',
      zip: searched.zip.trim(),
      miles: Number(searched.miles) || NEARBY_MILES,
      clearFilters: searched.name.trim() !== '' ? 'Leave the name empty to see every pharmacy nearby.' : null,
    });
  }
  return {
    title: 'No pharmacies match this name.',
    tips: [
      'Check the spelling, or type only part of the name.',
      'Add your zip code to see the pharmacies near you.',
    ],
  };
}
const search = (criteria: Criteria, page: number, signal: AbortSignal) =>
  searchPharmacies({ ...criteria, page, limit: DOCTOR_PAGE_SIZE }, { signal });
const directoryIdOf = (pharmacy: { pharmacy_id: string }) => pharmacy.pharmacy_id;

export function PharmaciesPage({ patientId, can }: Props) {
  const pharmacies = useMyPharmacies(patientId);
  const list = useDirectoryList({
    entries: pharmacies,
    directoryIdOf,
    headingId: HEADING_ID,
    remove: (pharmacy: MyPharmacy) => removePharmacy(userDb(), pharmacy.id),
    removedMessage: MY_PHARMACY_MESSAGES.removed,
  });

  if (!patientId) return <NoPatientSelected title="Pharmacies" />;

  const add = async (pharmacy: DirectoryPharmacy) => {
    try {
      await addPharmacy(userDb(), { patient_id: patientId, pharmacy });
      toast.success(MY_PHARMACY_MESSAGES.added);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'The pharmacy could not be added.');
    }
  };

  const prefer = async (pharmacy: MyPharmacy) => {
    try {
      await makePreferred(userDb(), pharmacy.id);
      toast.success(MY_PHARMACY_MESSAGES.preferred);
      // It moves to the top of the list: focus follows it.
      list.focus(pharmacy.id);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'The preferred pharmacy could not be saved.');
    }
  };

  return (
    <>
      <PageTitle description="Your pharmacies, on this device even without a signal.">Pharmacies</PageTitle>
      <MyEntries
        title="My pharmacies"
        headingId={HEADING_ID}
        entries={pharmacies}
        keyOf={(pharmacy) => pharmacy.id}
        itemAttributes={(pharmacy) => ({ 'data-pharmacy-entry': pharmacy.id })}
        empty={{
          icon: <Store />,
          title: 'No pharmacies in your list yet.',
          text: can.change
            ? 'Search the directory below and add the pharmacies you use: their addresses and phone numbers then stay on this device, even without a signal.'
            : 'When pharmacies are added to this list, they show here.',
        }}
        find={can.search ? { label: 'Find a pharmacy', onFind: () => goToSearch(SEARCH_ID) } : null}
        focusKey={list.focusId}
        onFocused={list.clearFocus}
      >
        {(pharmacy) => (
          <PharmacyEntry
            pharmacy={pharmacy}
            canChange={can.change}
            onMakePreferred={(chosen) => void prefer(chosen)}
            onRemove={list.askRemove}
          />
        )}
      </MyEntries>
      {can.search ? (
        <DirectorySearch
          id={SEARCH_ID}
          title="Find a pharmacy"
          offlineMessage={MY_PHARMACY_MESSAGES.searchOffline}
          fields={FIELDS}
          empty={EMPTY}
          schema={pharmacySearchQuerySchema}
          search={search}
          idOf={directoryIdOf}
          nameOf={(pharmacy) => pharmacy.name}
          noun={{ one: 'pharmacy', many: 'pharmacies' }}
          noMatches={noPharmaciesFound}
          renderResult={(pharmacy, searched) => (
            <PharmacyResult pharmacy={pharmacy} searchedByZip={searched.zip.trim() !== ''} />
          )}
          listed={list.listed}
          onAdd={can.change ? add : null}
        />
      ) : null}
      <ConfirmDialog
        open={list.removing !== null}
        title="Remove pharmacy"
        message={`Remove ${list.removing?.name ?? 'this pharmacy'} from your pharmacies? It can be added again from the search.`}
        confirmLabel="Remove"
        onConfirm={list.confirmRemove}
        onClose={list.cancelRemove}
      />
    </>
  );
}

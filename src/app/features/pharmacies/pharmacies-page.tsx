import { useCallback, useMemo, useState } from 'react';
import toast from 'react-hot-toast';
import type { DirectoryPharmacy } from '../../../domain/directory';
import { MY_PHARMACY_MESSAGES, type MyPharmacy } from '../../../domain/pharmacies';
import { userDb } from '../../../local/db';
import { addPharmacy, makePreferred, removePharmacy } from '../../../local/pharmacies';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Card, PageTitle } from '../../ui/page';
import { MyPharmacies } from './my-pharmacies';
import { PharmacySearch } from './pharmacy-search';
import { useMyPharmacies } from './use-my-pharmacies';

// /pharmacies and /caregiver/pharmacies: the patient's pharmacies from the device's table (offline too), and
// the directory search. Only the patient changes the list (add, make preferred, remove); a caregiver with
// Read Pharmacy sees it, and with Search Pharmacy may search the directory to look up a phone or address.

export type PharmacyAbilities = { change: boolean; search: boolean };
type Props = { patientId: string | null; can: PharmacyAbilities };

export function PharmaciesPage({ patientId, can }: Props) {
  const pharmacies = useMyPharmacies(patientId);
  const [removing, setRemoving] = useState<MyPharmacy | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const clearFocus = useCallback(() => setFocusId(null), []);
  const listed = useMemo(
    () => new Set((pharmacies ?? []).map((pharmacy) => pharmacy.pharmacy_id)),
    [pharmacies],
  );

  if (!patientId) {
    return (
      <>
        <PageTitle>Pharmacies</PageTitle>
        <Card>
          <p>Please select patient.</p>
        </Card>
      </>
    );
  }

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
      setFocusId(pharmacy.id);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'The preferred pharmacy could not be saved.');
    }
  };

  const confirmRemove = async () => {
    if (!removing || !pharmacies) return;
    // Focus then goes to the next entry (or the one before), or to the heading when the list is empty.
    const index = pharmacies.findIndex((pharmacy) => pharmacy.id === removing.id);
    const neighbour = pharmacies[index + 1] ?? pharmacies[index - 1] ?? null;
    await removePharmacy(userDb(), removing.id);
    setRemoving(null);
    toast.success(MY_PHARMACY_MESSAGES.removed);
    if (neighbour) setFocusId(neighbour.id);
    else requestAnimationFrame(() => document.getElementById('my-pharmacies-heading')?.focus());
  };

  const findPharmacy = () => {
    const field = document.querySelector<HTMLElement>('#find-a-pharmacy input');
    field?.scrollIntoView({ block: 'center' });
    field?.focus();
  };

  return (
    <>
      <PageTitle description="Your pharmacies, on this device even without a signal.">Pharmacies</PageTitle>
      <MyPharmacies
        pharmacies={pharmacies}
        canChange={can.change}
        onFindPharmacy={can.search ? findPharmacy : null}
        onMakePreferred={(pharmacy) => void prefer(pharmacy)}
        onRemove={setRemoving}
        focusId={focusId}
        onFocused={clearFocus}
      />
      {can.search ? <PharmacySearch listed={listed} onAdd={can.change ? add : null} /> : null}
      <ConfirmDialog
        open={removing !== null}
        title="Remove pharmacy"
        message={`Remove ${removing?.name ?? 'this pharmacy'} from your pharmacies? It can be added again from the search.`}
        confirmLabel="Remove"
        onConfirm={() => void confirmRemove()}
        onClose={() => setRemoving(null)}
      />
    </>
  );
}

import { useCallback, useMemo, useState, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { DateTime } from 'luxon';
import { Pill, Plus } from 'lucide-react';
import {
  medicineLabel,
  PRESCRIPTION_MESSAGES,
  type Prescription,
  type PrescriptionFilter,
  type PrescriptionStatus,
} from '../../../domain/prescriptions';
import { userDb } from '../../../local/db';
import { removePrescription, setPrescriptionStatus } from '../../../local/prescriptions';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { EmptyState, NoMatches, NoPatientSelected, PageTitle } from '../../ui/page';
import { PrescriptionFilters } from './prescription-filters';
import { PrescriptionFormSheet } from './prescription-form';
import { PrescriptionList } from './prescription-list';
import {
  hasFilter,
  selectPrescriptions,
  useAddedBy,
  usePatientCaregivers,
  usePatientDoctors,
  usePatientPharmacies,
  usePatientPrescriptions,
} from './use-prescriptions';

// /prescriptions and /caregiver/prescriptions: today's schedule first, then the patient's prescriptions
// from the device's table (offline too): the current and upcoming ones, or those the filters keep; add and
// edit in a sheet, status changes and delete on each card, as the person's permissions allow. Every write
// goes through the outbox, so all of it works without a signal.

export type PrescriptionAbilities = {
  add: boolean;
  edit: boolean;
  delete: boolean;
  /** Whether the patient's doctors and pharmacies are on this device for the viewer (Read Doctor, Read
   * Pharmacy): when not, a prescription's doctor or pharmacy is unnamed because it is not shared, not gone. */
  readDoctors?: boolean;
  readPharmacies?: boolean;
};
type Props = {
  patientId: string | null;
  /** The signed-in caregiver's id, or null for the patient themself. */
  caregiverId: string | null;
  can: PrescriptionAbilities;
  /** The patient themself (not a caregiver): only they choose who a missed dose alerts. */
  isPatient: boolean;
  /** Today's schedule (features/medicines), given by the route: a feature does not import another. */
  schedule: ReactNode;
};

const LIST_HEADING_ID = 'prescriptions-list-heading';

/** What a card says of a doctor or pharmacy it cannot name: removed, or never shared with this caregiver. */
export function unnamedTexts(can: PrescriptionAbilities): { doctor: string; pharmacy: string } {
  return {
    doctor:
      can.readDoctors === false
        ? 'A doctor (the patient’s doctors are not shared with you)'
        : 'A doctor no longer in the list',
    pharmacy:
      can.readPharmacies === false
        ? 'A pharmacy (the patient’s pharmacies are not shared with you)'
        : 'A pharmacy no longer in the list',
  };
}

export function PrescriptionsPage({ patientId, caregiverId, can, isPatient, schedule }: Props) {
  const today = DateTime.now().toISODate() ?? '';
  const rows = usePatientPrescriptions(patientId);
  const doctors = usePatientDoctors(patientId);
  const pharmacies = usePatientPharmacies(patientId);
  const caregivers = usePatientCaregivers(isPatient);
  const addedBy = useAddedBy(caregiverId);
  const [filter, setFilter] = useState<PrescriptionFilter>({});
  const [editing, setEditing] = useState<Prescription | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Prescription | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const clearFocus = useCallback(() => setFocusId(null), []);

  const shown = useMemo(
    () => (rows ? selectPrescriptions(rows, filter, today) : undefined),
    [rows, filter, today],
  );
  const doctorNames = useMemo(
    () => new Map(doctors.map((doctor) => [doctor.doctor_id, doctor.name])),
    [doctors],
  );
  const pharmacyNames = useMemo(
    () => new Map(pharmacies.map((pharmacy) => [pharmacy.pharmacy_id, pharmacy.name])),
    [pharmacies],
  );

  if (!patientId) return <NoPatientSelected title="Prescriptions" />;

  const focusHeading = () => requestAnimationFrame(() => document.getElementById(LIST_HEADING_ID)?.focus());

  const changeStatus = async (prescription: Prescription, status: PrescriptionStatus) => {
    try {
      await setPrescriptionStatus(userDb(), prescription.id, status);
      toast.success(PRESCRIPTION_MESSAGES.statusChanged);
      // The button pressed is gone (its card now offers the other changes, or left the list): the card,
      // or the list's heading, takes the focus.
      const stillShown = selectPrescriptions([{ ...prescription, status }], filter, today).length > 0;
      if (stillShown) setFocusId(prescription.id);
      else focusHeading();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'The status could not be changed.');
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await removePrescription(userDb(), deleting.id);
      toast.success(PRESCRIPTION_MESSAGES.deleted);
      focusHeading();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'The prescription could not be deleted.');
    } finally {
      setDeleting(null);
    }
  };

  const filtered = hasFilter(filter);
  const addButton = (words: string) =>
    can.add ? (
      <Button onClick={() => setEditing('new')}>
        <Plus aria-hidden="true" className="h-5 w-5" />
        {words}
      </Button>
    ) : null;

  return (
    <>
      <PageTitle
        description={
          isPatient
            ? 'Your medicines and today’s doses, on this device even without a signal.'
            : 'The patient’s medicines and today’s doses, on this device even without a signal.'
        }
      >
        Prescriptions
      </PageTitle>
      <div className="mb-8">{schedule}</div>

      <section aria-labelledby={LIST_HEADING_ID} className="mb-8">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
          <h2 id={LIST_HEADING_ID} tabIndex={-1} className="text-heading text-text focus:outline-none">
            {filtered ? 'Filtered prescriptions' : 'Current and upcoming'}
          </h2>
          {rows && rows.length > 0 ? addButton('Add prescription') : null}
        </div>
        {rows && rows.length > 0 ? (
          <PrescriptionFilters filter={filter} doctors={doctors} onChange={setFilter} />
        ) : null}
        {shown === undefined || rows === undefined ? null : rows.length === 0 ? (
          <EmptyState
            icon={<Pill />}
            title="No prescriptions yet."
            action={addButton('Add your first prescription')}
          >
            {can.add
              ? 'Type it in or read it from a photo of the label: its dose times make the daily schedule, with a reminder for each.'
              : 'When prescriptions are added, they show here.'}
          </EmptyState>
        ) : shown.length === 0 ? (
          filtered ? (
            <NoMatches title="No prescriptions match these filters." onClear={() => setFilter({})} />
          ) : (
            <EmptyState
              icon={<Pill />}
              title="No current or upcoming prescriptions."
              action={addButton('Add prescription')}
            >
              Completed and discontinued prescriptions show when you filter by status.
            </EmptyState>
          )
        ) : (
          <>
            <p className="mb-3 text-small text-muted" aria-live="polite">
              {shown.length === 1 ? '1 prescription' : `${shown.length} prescriptions`}
            </p>
            <PrescriptionList
              prescriptions={shown}
              labelledBy={LIST_HEADING_ID}
              canEdit={can.edit}
              canDelete={can.delete}
              onEdit={setEditing}
              onStatus={(prescription, status) => void changeStatus(prescription, status)}
              onDelete={setDeleting}
              doctorNames={doctorNames}
              pharmacyNames={pharmacyNames}
              unnamed={unnamedTexts(can)}
              addedBy={addedBy}
              focusId={focusId}
              onFocused={clearFocus}
            />
          </>
        )}
      </section>

      {editing !== null ? (
        <PrescriptionFormSheet
          key={editing === 'new' ? 'new' : editing.id}
          patientId={patientId}
          caregiverId={caregiverId}
          isPatient={isPatient}
          editing={editing === 'new' ? null : editing}
          today={today}
          doctors={doctors}
          pharmacies={pharmacies}
          caregivers={caregivers}
          onDone={(message, id) => {
            setEditing(null);
            setFocusId(id);
            toast.success(message);
          }}
          onCancel={() => setEditing(null)}
        />
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete prescription?"
        message={`This removes ${deleting ? medicineLabel(deleting) : 'this prescription'} and its schedule. Marked doses stay in the history.`}
        confirmLabel="Delete"
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}

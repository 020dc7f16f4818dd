import { useCallback, useEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import type { Appointment } from '../../../domain/appointments';
import { removeAppointment } from '../../../local/appointments';
import { userDb } from '../../../local/db';
import { Button } from '../../ui/button';
import { Card, NoPatientSelected, PageTitle } from '../../ui/page';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { AppointmentFormPanel } from './appointment-form';
import { AppointmentList } from './appointment-list';
import { useAddedBy, useAppointments } from './use-appointments';

// /appointments and /caregiver/appointments: upcoming and past visits from the local table, with add,
// edit and delete as the person's permissions allow. Works the same online and offline.

export type AppointmentAbilities = { add: boolean; edit: boolean; delete: boolean };
type Props = { patientId: string | null; caregiverId: string | null; can: AppointmentAbilities };

export function AppointmentsPage({ patientId, caregiverId, can }: Props) {
  const lists = useAppointments(patientId);
  const addedBy = useAddedBy(caregiverId);
  const [editing, setEditing] = useState<Appointment | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Appointment | null>(null);
  // Where focus goes when the form closes: the saved appointment, or back to what opened the form.
  const [savedId, setSavedId] = useState<string | null>(null);
  const returnFocus = useRef<'new' | string | null>(null);
  const newButton = useRef<HTMLSpanElement>(null);
  const clearSaved = useCallback(() => setSavedId(null), []);

  useEffect(() => {
    const target = returnFocus.current;
    if (editing !== null || target === null) return;
    returnFocus.current = null;
    if (target === 'new') newButton.current?.querySelector('button')?.focus();
    else
      document
        .querySelector<HTMLElement>(`[data-appointment-id="${target}"] button[aria-label^="Edit "]`)
        ?.focus();
  }, [editing]);

  if (!patientId) return <NoPatientSelected title="Appointments" />;
  const confirmDelete = async () => {
    if (!deleting) return;
    await removeAppointment(userDb(), deleting.id);
    setDeleting(null);
    toast.success('Appointment deleted');
  };

  return (
    <>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <PageTitle description="Your visits, on this device even without a signal.">Appointments</PageTitle>
        {can.add && editing === null ? (
          <span ref={newButton}>
            <Button onClick={() => setEditing('new')}>New appointment</Button>
          </span>
        ) : null}
      </div>
      {editing !== null && lists ? (
        <Card className="mb-8">
          <h2 className="mb-4 text-heading">{editing === 'new' ? 'New appointment' : 'Edit appointment'}</h2>
          <AppointmentFormPanel
            key={editing === 'new' ? 'new' : editing.id}
            patientId={patientId}
            caregiverId={caregiverId}
            editing={editing === 'new' ? null : editing}
            patientZone={lists.patientZone}
            onDone={(message, id) => {
              setEditing(null);
              setSavedId(id);
              toast.success(message);
            }}
            onCancel={() => {
              returnFocus.current = editing === 'new' ? 'new' : editing.id;
              setEditing(null);
            }}
          />
        </Card>
      ) : null}
      {lists ? (
        <>
          <AppointmentList
            title="Upcoming"
            emptyText="No upcoming appointments."
            appointments={lists.upcoming}
            canEdit={can.edit}
            canDelete={can.delete}
            onEdit={setEditing}
            onDelete={setDeleting}
            focusId={savedId}
            onFocused={clearSaved}
            addedBy={addedBy}
          />
          <AppointmentList
            title="Past"
            emptyText="No past appointments."
            appointments={lists.past}
            canEdit={can.edit}
            canDelete={can.delete}
            onEdit={setEditing}
            onDelete={setDeleting}
            focusId={savedId}
            onFocused={clearSaved}
            addedBy={addedBy}
          />
        </>
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete appointment"
        message="Are you sure you want to delete this appointment? This action cannot be undone."
        confirmLabel="Delete"
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}

import type { ReactNode } from 'react';
import { CalendarClock, CircleCheck, CircleX, CloudUpload, MapPin, Paperclip, Phone } from 'lucide-react';
import { formatDateTime } from '../../../domain/date-display';
import type { Appointment } from '../../../domain/appointments';
import { Button } from '../../ui/button';
import { Badge, type BadgeTone } from '../../ui/badge';
import { CardList } from '../../ui/data-list';
import { fileUrl } from '../../../local/files';
import type { LocalDoctor } from '../../../local/db';
import { doctorKey, useAppointmentDoctors } from './use-appointments';
import toast from 'react-hot-toast';
import { mapHref, telHref } from '../../../domain/places';

async function openAttachment(reference: string) {
  try {
    window.open(await fileUrl(reference), '_blank', 'noopener');
  } catch (error) {
    toast.error(error instanceof Error ? error.message : 'Could not open the attachment.');
  }
}

type Props = {
  title: string;
  emptyText: string;
  appointments: Appointment[];
  canEdit: boolean;
  canDelete: boolean;
  onEdit: (appointment: Appointment) => void;
  onDelete: (appointment: Appointment) => void;
  /** The appointment that was just saved: it takes the focus once it shows in the list. */
  focusId?: string | null;
  onFocused?: () => void;
  /** Who added an appointment, in words ('Alex', 'you'), for those a caregiver added; null otherwise. */
  addedBy?: (caregiverId: string | null) => string | null;
};

const linkClass =
  'inline-flex min-h-11 items-center gap-1 text-small font-semibold text-primary-strong underline [overflow-wrap:anywhere] focus:outline-none focus-visible:ring-2 focus-visible:ring-focus';

/** Who the visit is with: name, the address as a map link and the phone as a call link. */
function DoctorOfAppointment({
  doctorId,
  doctor,
}: {
  doctorId: string | null;
  doctor: LocalDoctor | undefined;
}) {
  if (!doctorId) return null;
  if (!doctor) return <p className="text-small text-muted">With a doctor no longer in the list</p>;
  return (
    <div data-testid="appointment-doctor">
      <p className="text-small text-text [overflow-wrap:anywhere]">
        With {doctor.name}, {doctor.speciality}
      </p>
      <div className="flex flex-wrap gap-x-4">
        <a href={mapHref(doctor)} target="_blank" rel="noopener noreferrer" className={linkClass}>
          <MapPin aria-hidden="true" className="h-4 w-4 shrink-0" />
          <span>
            <span className="font-normal text-muted">Doctor’s office: </span>
            {doctor.address}, {doctor.city}
          </span>
          <span className="sr-only"> (opens a map)</span>
        </a>
        {doctor.phone ? (
          <a href={telHref(doctor.phone)} className={linkClass}>
            <Phone aria-hidden="true" className="h-4 w-4 shrink-0" />
            {doctor.phone}
          </a>
        ) : null}
      </div>
    </div>
  );
}

// The status in words with colour (the word carries the meaning).
const STATUS_BADGE: Record<Appointment['status'], { tone: BadgeTone; icon: ReactNode; label: string }> = {
  scheduled: { tone: 'info', icon: <CalendarClock />, label: 'Scheduled' },
  completed: { tone: 'success', icon: <CircleCheck />, label: 'Completed' },
  cancelled: { tone: 'danger', icon: <CircleX />, label: 'Cancelled' },
};

export function AppointmentList({
  title,
  emptyText,
  appointments,
  canEdit,
  canDelete,
  onEdit,
  onDelete,
  focusId = null,
  onFocused,
  addedBy = () => null,
}: Props) {
  const doctors = useAppointmentDoctors(appointments);
  const headingId = `${title.toLowerCase()}-heading`;
  return (
    <section aria-labelledby={headingId} className="mb-8">
      <h2 id={headingId} className="mb-3 text-heading text-text">
        {title}
      </h2>
      {appointments.length === 0 ? (
        <p className="text-muted">{emptyText}</p>
      ) : (
        <CardList
          items={appointments}
          keyOf={(appointment) => appointment.id}
          labelledBy={headingId}
          cardClassName="flex flex-wrap items-start justify-between gap-3"
          itemAttributes={(appointment) => ({ 'data-appointment-id': appointment.id })}
          focusKey={focusId}
          onFocused={onFocused}
        >
          {(appointment) => (
            <AppointmentItem
              appointment={appointment}
              canEdit={canEdit}
              canDelete={canDelete}
              onEdit={onEdit}
              onDelete={onDelete}
              addedBy={addedBy(appointment.caregiver_id)}
              doctor={
                appointment.doctor_id
                  ? doctors.get(doctorKey(appointment.patient_id, appointment.doctor_id))
                  : undefined
              }
            />
          )}
        </CardList>
      )}
    </section>
  );
}

function AppointmentItem({
  appointment,
  canEdit,
  canDelete,
  onEdit,
  onDelete,
  addedBy,
  doctor,
}: {
  appointment: Appointment;
  canEdit: boolean;
  canDelete: boolean;
  onEdit: (appointment: Appointment) => void;
  onDelete: (appointment: Appointment) => void;
  addedBy: string | null;
  doctor: LocalDoctor | undefined;
}) {
  return (
    <>
      <div className="min-w-0">
        <p className="font-semibold text-text [overflow-wrap:anywhere]">{appointment.appointment_title}</p>
        {/* On the clock of the visit's place, its zone named when this device's clock reads otherwise. */}
        <p className="text-text" data-testid="appointment-when">
          {formatDateTime(appointment.appointment_date, { zone: appointment.time_zone })}
        </p>
        <DoctorOfAppointment doctorId={appointment.doctor_id} doctor={doctor} />
        {/* Labelled: beside the doctor's office, a bare second address leaves the person to guess where to go. */}
        {appointment.location ? (
          <p className="text-small text-muted [overflow-wrap:anywhere]" data-testid="appointment-location">
            <span className="font-semibold text-text">Location: </span>
            {appointment.location}
          </p>
        ) : null}
        {appointment.notes ? (
          <p className="text-small text-muted [overflow-wrap:anywhere]">
            <span className="font-semibold text-text">Notes: </span>
            {appointment.notes}
          </p>
        ) : null}
        {addedBy ? (
          <p className="text-small text-muted" data-testid="added-by">
            Added by {addedBy}
          </p>
        ) : null}
        {appointment.attachment_key ? (
          <button
            type="button"
            className="inline-flex min-h-11 items-center gap-1 text-small font-semibold text-primary-strong underline focus:outline-none focus-visible:ring-2 focus-visible:ring-focus"
            onClick={() => void openAttachment(appointment.attachment_key ?? '')}
          >
            <Paperclip aria-hidden="true" className="h-4 w-4" />
            View attachment
          </button>
        ) : null}
        <div className="mt-1 flex flex-wrap gap-2">
          <Badge tone={STATUS_BADGE[appointment.status].tone} icon={STATUS_BADGE[appointment.status].icon}>
            {STATUS_BADGE[appointment.status].label}
          </Badge>
          {appointment.version === 0 ? (
            <Badge tone="warning" icon={<CloudUpload />}>
              Not synced yet
            </Badge>
          ) : null}
        </div>
      </div>
      <div className="flex gap-2">
        {canEdit ? (
          <Button
            variant="secondary"
            onClick={() => onEdit(appointment)}
            aria-label={`Edit ${appointment.appointment_title}`}
          >
            Edit
          </Button>
        ) : null}
        {canDelete ? (
          <Button
            variant="ghost"
            onClick={() => onDelete(appointment)}
            aria-label={`Delete ${appointment.appointment_title}`}
          >
            Delete
          </Button>
        ) : null}
      </div>
    </>
  );
}

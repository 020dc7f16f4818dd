import { formatDateTime } from '../../../domain/dates';
import type { Appointment } from '../../../domain/appointments';
import { Button } from '../../ui/button';
import { fileUrl } from '../../../local/files';
import toast from 'react-hot-toast';

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
};

const STATUS_STYLE: Record<Appointment['status'], string> = {
  scheduled: 'bg-brand-100 text-brand-900',
  completed: 'bg-slate-200 text-slate-800',
  cancelled: 'bg-red-100 text-red-800',
};

export function AppointmentList({
  title,
  emptyText,
  appointments,
  canEdit,
  canDelete,
  onEdit,
  onDelete,
}: Props) {
  const headingId = `${title.toLowerCase()}-heading`;
  return (
    <section aria-labelledby={headingId} className="mb-8">
      <h2 id={headingId} className="mb-3 text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {appointments.length === 0 ? (
        <p className="text-slate-700">{emptyText}</p>
      ) : (
        <ul className="space-y-3">
          {appointments.map((appointment) => (
            <li
              key={appointment.id}
              className="flex flex-wrap items-start justify-between gap-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200"
            >
              <div>
                <p className="font-semibold text-slate-900">{appointment.appointment_title}</p>
                <p className="text-slate-700">{formatDateTime(appointment.appointment_date)}</p>
                {appointment.location ? (
                  <p className="text-sm text-slate-700">{appointment.location}</p>
                ) : null}
                {appointment.notes ? <p className="text-sm text-slate-600">{appointment.notes}</p> : null}
                {appointment.attachment_key ? (
                  <button
                    type="button"
                    className="text-sm font-semibold text-brand-800 underline"
                    onClick={() => void openAttachment(appointment.attachment_key ?? '')}
                  >
                    View attachment
                  </button>
                ) : null}
                <span
                  className={`mt-1 inline-block rounded px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[appointment.status]}`}
                >
                  {appointment.status}
                </span>
                {appointment.version === 0 ? (
                  <span className="ml-2 text-xs text-slate-600">Not synced yet</span>
                ) : null}
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
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

import type { ReactNode } from 'react';
import toast from 'react-hot-toast';
import { CalendarRange, Clock, CloudUpload, Image, Pill, Store, Stethoscope } from 'lucide-react';
import { formatClockTime, formatDate } from '../../../domain/date-display';
import {
  medicineLabel,
  PRESCRIPTION_STATUS_LABELS,
  type Prescription,
  type PrescriptionStatus,
} from '../../../domain/prescriptions';
import { fileUrl } from '../../../local/files';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { CardList } from '../../ui/data-list';
import { FORM_LABELS, STATUS_TONES, statusActions, supplyText } from './prescription-format';

// The prescriptions as cards: the medicine in large type (read at arm's length), then how and when to take
// it, its status in words and colour, who prescribed it and where it is filled, its dates and supply. Two
// columns from 1024 px. The actions each card offers follow the person's permissions.

export type PrescriptionActions = {
  canEdit: boolean;
  canDelete: boolean;
  onEdit: (prescription: Prescription) => void;
  onStatus: (prescription: Prescription, status: PrescriptionStatus) => void;
  onDelete: (prescription: Prescription) => void;
};

type Props = PrescriptionActions & {
  prescriptions: Prescription[];
  labelledBy: string;
  doctorNames: ReadonlyMap<string, string>;
  pharmacyNames: ReadonlyMap<string, string>;
  /** How a doctor or pharmacy that is not in the names is named (prescriptions-page.tsx: unnamedTexts). */
  unnamed: { doctor: string; pharmacy: string };
  /** Who added a prescription, in words, for those a caregiver added; null otherwise. */
  addedBy: (caregiverId: string | null) => string | null;
  /** The prescription just saved: its card takes the focus once shown. */
  focusId: string | null;
  onFocused: () => void;
};

async function openPhoto(reference: string) {
  try {
    window.open(await fileUrl(reference), '_blank', 'noopener');
  } catch (error) {
    toast.error(error instanceof Error ? error.message : 'Could not open the label photo.');
  }
}

export function PrescriptionList({ prescriptions, labelledBy, focusId, onFocused, ...rest }: Props) {
  return (
    <CardList
      items={prescriptions}
      keyOf={(prescription) => prescription.id}
      labelledBy={labelledBy}
      className="grid gap-3 lg:grid-cols-2"
      cardPadding="tile"
      cardClassName="flex min-w-0 flex-col gap-3"
      itemAttributes={(prescription) => ({
        'aria-labelledby': headingIdOf(prescription),
        'data-prescription-id': prescription.id,
      })}
      focusKey={focusId}
      onFocused={onFocused}
    >
      {(prescription) => <PrescriptionCard prescription={prescription} {...rest} />}
    </CardList>
  );
}

const headingIdOf = (prescription: Prescription) => `prescription-${prescription.id}`;

function PrescriptionCard({
  prescription,
  canEdit,
  canDelete,
  onEdit,
  onStatus,
  onDelete,
  doctorNames,
  pharmacyNames,
  unnamed,
  addedBy,
}: Omit<Props, 'prescriptions' | 'labelledBy' | 'focusId' | 'onFocused'> & { prescription: Prescription }) {
  const label = medicineLabel(prescription);
  const headingId = headingIdOf(prescription);
  const doctor = prescription.doctor_id ? (doctorNames.get(prescription.doctor_id) ?? unnamed.doctor) : null;
  const pharmacy = prescription.pharmacy_id
    ? (pharmacyNames.get(prescription.pharmacy_id) ?? unnamed.pharmacy)
    : null;
  const supply = supplyText(prescription.quantity, prescription.refills);
  const who = addedBy(prescription.caregiver_id);
  const dates = prescription.end_date
    ? `${formatDate(prescription.start_date)} to ${formatDate(prescription.end_date)}`
    : `From ${formatDate(prescription.start_date)}, ongoing`;

  return (
    <>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 id={headingId} className="text-title leading-tight text-text [overflow-wrap:anywhere]">
            {label}
          </h3>
          {/* The strength is in the heading already (medicineLabel). */}
          <p className="text-muted">{FORM_LABELS[prescription.form]}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Badge tone={STATUS_TONES[prescription.status]}>
            {PRESCRIPTION_STATUS_LABELS[prescription.status]}
          </Badge>
          {prescription.version === 0 ? (
            <Badge tone="warning" icon={<CloudUpload />}>
              Not synced yet
            </Badge>
          ) : null}
        </div>
      </div>

      {prescription.directions ? (
        <p className="text-text [overflow-wrap:anywhere]">{prescription.directions}</p>
      ) : null}

      <div>
        <ul className="flex flex-wrap gap-2" aria-label={`Dose times of ${label}`}>
          {prescription.times.map((time) => (
            <li
              key={time}
              className="inline-flex items-center gap-1 rounded-full bg-primary-soft px-3 py-1 font-semibold text-primary-strong"
            >
              <Clock aria-hidden="true" className="h-4 w-4" />
              {formatClockTime(time)}
            </li>
          ))}
          {prescription.as_needed || prescription.times.length === 0 ? (
            <li className="inline-flex items-center gap-1 rounded-full bg-surface-muted px-3 py-1 font-semibold text-text ring-1 ring-border">
              <Pill aria-hidden="true" className="h-4 w-4" />
              As needed
            </li>
          ) : null}
        </ul>
      </div>

      <dl className="grid gap-1 text-small">
        {doctor ? <Detail icon={<Stethoscope />} term="Prescribed by" value={doctor} /> : null}
        {pharmacy ? <Detail icon={<Store />} term="Pharmacy" value={pharmacy} /> : null}
        <Detail icon={<CalendarRange />} term="Dates" value={dates} />
        {supply ? <Detail icon={<Pill />} term="Supply" value={supply} /> : null}
      </dl>
      {prescription.notes ? (
        <p className="text-small text-muted [overflow-wrap:anywhere]">{prescription.notes}</p>
      ) : null}
      {who ? (
        <p className="text-small text-muted" data-testid="added-by">
          Added by {who}
        </p>
      ) : null}
      {prescription.attachment_key ? (
        <button
          type="button"
          className="inline-flex min-h-11 items-center gap-1 self-start text-small font-semibold text-primary-strong underline focus:outline-none focus-visible:ring-2 focus-visible:ring-focus"
          onClick={() => void openPhoto(prescription.attachment_key ?? '')}
        >
          <Image aria-hidden="true" className="h-4 w-4" />
          View label photo
          <span className="sr-only"> of {label}</span>
        </button>
      ) : null}

      {canEdit || canDelete ? (
        <div className="flex flex-wrap gap-2 border-t border-border pt-3">
          {canEdit ? (
            <>
              <Button variant="secondary" onClick={() => onEdit(prescription)} aria-label={`Edit ${label}`}>
                Edit
              </Button>
              {statusActions(prescription.status).map((action) => (
                <Button
                  key={action.to}
                  variant="secondary"
                  onClick={() => onStatus(prescription, action.to)}
                  aria-label={`${action.label}: ${label}`}
                >
                  {action.label}
                </Button>
              ))}
            </>
          ) : null}
          {canDelete ? (
            <Button variant="ghost" onClick={() => onDelete(prescription)} aria-label={`Delete ${label}`}>
              Delete
            </Button>
          ) : null}
        </div>
      ) : null}
    </>
  );
}

function Detail({ icon, term, value }: { icon: ReactNode; term: string; value: string }) {
  // A dl's groups hold only dt and dd: the icon goes inside the term.
  return (
    <div className="flex items-start gap-1">
      <dt className="flex shrink-0 items-center gap-2 text-muted">
        <span aria-hidden="true" className="inline-flex [&>svg]:h-4 [&>svg]:w-4">
          {icon}
        </span>
        {term}:
      </dt>
      <dd className="min-w-0 text-text [overflow-wrap:anywhere]">{value}</dd>
    </div>
  );
}

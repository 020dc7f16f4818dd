import { useState } from 'react';
import toast from 'react-hot-toast';
import {
  VITAL_KINDS,
  VITAL_LABELS,
  VITAL_MESSAGES,
  type Vital,
  type VitalKind,
  type VitalUnitChoice,
} from '../../../domain/vitals';
import { Button } from '../../ui/button';
import { Sheet } from '../../ui/sheet';
import { useOnline } from '../../ui/use-online';
import { VitalForm } from './vital-form';

// A reading is entered in two taps, from Home and from the Vitals screen: the kind's button opens this
// sheet with its first number focused, and Save (the numbers typed between) keeps it on this device. The
// toast says whether it is on its way or waits for a connection, as other records' saves do.

export const SAVED_OFFLINE = 'Reading saved on this device. It will be sent when you are back online.';

export type SheetState = { kind: VitalKind; editing: Vital | null } | null;

type SheetProps = {
  state: SheetState;
  patientId: string;
  caregiverId: string | null;
  units: VitalUnitChoice;
  onClose: () => void;
  /** Saved: the reading's id (a list may move the focus to it). */
  onSaved?: (id: string) => void;
};

export function ReadingSheet({ state, patientId, caregiverId, units, onClose, onSaved }: SheetProps) {
  const online = useOnline();
  const label = state ? VITAL_LABELS[state.kind].toLowerCase() : '';
  return (
    <Sheet
      open={state !== null}
      onClose={onClose}
      title={state?.editing ? `Edit ${label} reading` : `New ${label} reading`}
      size="md"
      data-testid="vital-sheet"
    >
      {state ? (
        <VitalForm
          key={`${state.kind}-${state.editing?.id ?? 'new'}`}
          kind={state.kind}
          patientId={patientId}
          caregiverId={caregiverId}
          units={units}
          editing={state.editing}
          onSaved={(id) => {
            toast.success(online ? VITAL_MESSAGES.saved : SAVED_OFFLINE);
            onClose();
            onSaved?.(id);
          }}
          onCancel={onClose}
        />
      ) : null}
    </Sheet>
  );
}

/** One button per kind; each opens the sheet for a new reading of that kind. */
export function QuickAdd({
  patientId,
  caregiverId,
  units,
  label = 'Add a reading',
}: {
  patientId: string;
  caregiverId: string | null;
  units: VitalUnitChoice;
  label?: string;
}) {
  const [state, setState] = useState<SheetState>(null);
  return (
    <div role="group" aria-label={label} data-testid="vital-quick-add">
      <p className="mb-2 text-small font-medium text-text" aria-hidden="true">
        {label}
      </p>
      <div className="flex flex-wrap gap-2">
        {VITAL_KINDS.map((kind) => (
          <Button key={kind} variant="secondary" onClick={() => setState({ kind, editing: null })}>
            {VITAL_LABELS[kind]}
          </Button>
        ))}
      </div>
      <ReadingSheet
        state={state}
        patientId={patientId}
        caregiverId={caregiverId}
        units={units}
        onClose={() => setState(null)}
      />
    </div>
  );
}

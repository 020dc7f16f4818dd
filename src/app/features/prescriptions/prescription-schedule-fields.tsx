import { useId } from 'react';
import type { ApprovedRequest } from '../../../domain/caregivers';
import { CheckboxField, TextField } from '../../ui/fields';
import { GroupError } from '../../ui/form';
import { DoseTimes } from './prescription-form-parts';
import { directionsSuggestion } from './prescription-form-options';
import type { PrescriptionFormState } from './use-prescription-form';

// The parts of the prescription form about when to take it: the directions with what they say about the
// times, the dose times themselves (or 'as needed'), and whom a missed dose alerts.

export function DirectionsAndTimes({ state }: { state: PrescriptionFormState }) {
  const { form, directionsReading, timesEdited } = state;
  const timesLabelId = useId();
  const timesError = form.errorOf('times');
  return (
    <>
      <div className="sm:col-span-2">
        <TextField
          label="Directions"
          placeholder="e.g. Take 1 tablet by mouth twice daily"
          {...form.field('directions')}
          onChange={state.changeDirections}
        />
        <p aria-live="polite" className="-mt-2 mb-4 text-small text-muted" data-testid="directions-summary">
          {directionsSuggestion(form.values.directions, directionsReading, timesEdited)}
        </p>
      </div>

      <fieldset className="mb-4 sm:col-span-2" aria-labelledby={timesLabelId}>
        <legend id={timesLabelId} className="text-small font-medium text-text">
          Dose times
        </legend>
        {form.values.as_needed ? null : (
          <DoseTimes times={form.values.times} error={timesError} onChange={state.changeTimes} />
        )}
        <CheckboxField checked={form.values.as_needed} onChange={state.changeAsNeeded}>
          Take as needed (no fixed times)
        </CheckboxField>
        <GroupError message={timesError} />
      </fieldset>
    </>
  );
}

/** Only the patient chooses whom a missed dose alerts, and after how long. */
export function MissedDoseAlerts({
  state,
  caregivers,
}: {
  state: PrescriptionFormState;
  caregivers: readonly ApprovedRequest[];
}) {
  const { form } = state;
  const alertsLabelId = useId();
  const chosen = form.values.alert_caregivers;
  return (
    <fieldset className="mb-4 sm:col-span-2" aria-labelledby={alertsLabelId}>
      <legend id={alertsLabelId} className="sr-only">
        Missed-dose alerts
      </legend>
      <TextField
        label="Alert caregivers if a dose is not marked within N minutes"
        inputMode="numeric"
        {...form.field('alert_after_minutes')}
      />
      {caregivers.length === 0 ? (
        <p className="text-small text-muted">
          Invite a caregiver on the Caregivers page to have them alerted when a dose is missed.
        </p>
      ) : (
        <>
          <p className="text-small font-medium text-text">Caregivers to alert</p>
          {caregivers.map((caregiver) => (
            <CheckboxField
              key={caregiver.caregiver_id}
              checked={chosen.includes(caregiver.caregiver_id)}
              onChange={(checked) =>
                form.set(
                  'alert_caregivers',
                  checked
                    ? [...chosen, caregiver.caregiver_id]
                    : chosen.filter((id) => id !== caregiver.caregiver_id),
                )
              }
            >
              {caregiver.name}
            </CheckboxField>
          ))}
        </>
      )}
      <GroupError message={form.errorOf('alert_caregivers')} />
    </fieldset>
  );
}

import { describe, expect, it } from 'vitest';
import { selectionUpkeep } from '../../../src/app/shell/use-selected-patient';

const ann = { patient_id: 'ann', permissions: ['ReadAppointment'] };
const bob = { patient_id: 'bob', permissions: ['ReadDoctor'] };

describe('selectionUpkeep', () => {
  it('leaves a valid selection alone', () => {
    expect(selectionUpkeep('ann', [ann, bob], '/caregiver/appointments')).toEqual({});
    expect(selectionUpkeep('bob', [ann, bob], '/caregiver/patients')).toEqual({});
  });

  it('clears a patient whose link is gone, and leaves a screen that needed it for the dashboard', () => {
    expect(selectionUpkeep('gone', [ann, bob], '/caregiver/patients')).toEqual({ select: null });
    expect(selectionUpkeep('gone', [ann, bob], '/caregiver/appointments')).toEqual({
      select: null,
      goTo: '/caregiver/dashboard',
    });
    expect(selectionUpkeep('gone', [], '/caregiver/dashboard')).toEqual({ select: null });
  });

  it('selects the one linked patient when none is selected', () => {
    expect(selectionUpkeep(null, [bob], '/caregiver/dashboard')).toEqual({ select: 'bob' });
    expect(selectionUpkeep(null, [ann, bob], '/caregiver/dashboard')).toEqual({});
    expect(selectionUpkeep(null, [], '/caregiver/dashboard')).toEqual({});
  });

  it('sends a caregiver whose Read permission was withdrawn off that screen', () => {
    expect(selectionUpkeep('bob', [ann, bob], '/caregiver/appointments')).toEqual({ goTo: '/unauthorized' });
    expect(selectionUpkeep('ann', [ann, bob], '/caregiver/doctors/123')).toEqual({ goTo: '/unauthorized' });
  });

  it('with no patient selected, a screen that needs one goes to the dashboard', () => {
    expect(selectionUpkeep(null, [ann, bob], '/caregiver/appointments')).toEqual({
      goTo: '/caregiver/dashboard',
    });
  });
});

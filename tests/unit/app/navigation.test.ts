import { describe, expect, it } from 'vitest';
import {
  CAREGIVER_NAV_ALWAYS,
  PATIENT_NAV,
  caregiverNav,
  splitForPhone,
} from '../../../src/app/shell/navigation';
import { PERMISSIONS } from '../../../src/domain/permissions';

// The phone splits the menu (src/app/README.md) into a tab bar and a More sheet: nothing is lost,
// nothing added, the More sheet keeps the menu's order, and a caregiver's tabs follow the Read permissions.

const labels = (entries: readonly { label: string }[]) => entries.map((entry) => entry.label);
const paths = (entries: readonly { to: string }[]) => entries.map((entry) => entry.to);

describe('splitForPhone', () => {
  it("gives a patient Home, Medicines, Appointments and Reports, and the rest in the menu's order", () => {
    const { tabs, more } = splitForPhone(PATIENT_NAV);
    expect(tabs.map((tab) => [tab.label, tab.to])).toEqual([
      ['Home', '/dashboard'],
      ['Medicines', '/prescriptions'],
      ['Appointments', '/appointments'],
      ['Reports', '/lab-report'],
    ]);
    expect(labels(more)).toEqual([
      'Doctors',
      'Pharmacies',
      'Caregivers',
      'Medical History',
      'Vitals',
      'Caregiver Permissions Request',
      'Subscription',
      'Profile',
    ]);
    // Every menu entry is in exactly one of the two.
    expect([...paths(tabs), ...paths(more)].sort()).toEqual(paths(PATIENT_NAV).sort());
  });

  it('gives a caregiver with every permission the caregiver variants of the four tabs', () => {
    const { tabs, more } = splitForPhone(caregiverNav(PERMISSIONS));
    expect(tabs.map((tab) => [tab.label, tab.to])).toEqual([
      ['Home', '/caregiver/dashboard'],
      ['Medicines', '/caregiver/prescriptions'],
      ['Appointments', '/caregiver/appointments'],
      ['Reports', '/caregiver/lab-report'],
    ]);
    expect(labels(more)).toEqual([
      'Patients',
      'Doctors',
      'Pharmacies',
      'Medical History',
      'Vitals',
      'Profile',
      'Permission Requests',
    ]);
  });

  it('hides the tab of each Read permission the caregiver lacks', () => {
    const { tabs, more } = splitForPhone(caregiverNav(['ReadAppointment']));
    expect(labels(tabs)).toEqual(['Home', 'Appointments']);
    expect(labels(more)).toEqual(['Patients', 'Profile', 'Permission Requests']);
    const none = splitForPhone(caregiverNav([]));
    expect(labels(none.tabs)).toEqual(['Home']);
    expect(paths(none.more)).toEqual(paths(CAREGIVER_NAV_ALWAYS).slice(1));
  });
});

describe('roles without a menu', () => {
  it('sends Admin and Doctor, who have no menu, to /unauthorized, and the others home', async () => {
    const { homeFor } = await import('../../../src/app/shell/guards');
    expect([
      homeFor('Admin'),
      homeFor('Doctor'),
      homeFor('Patient'),
      homeFor('Caregiver'),
      homeFor(undefined),
    ]).toEqual(['/unauthorized', '/unauthorized', '/dashboard', '/caregiver/dashboard', '/login']);
  });
});

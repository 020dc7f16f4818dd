import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import type { Permission } from '../../../src/domain/permissions';
import { PermissionPicker, permissionsByResource } from '../../../src/app/ui/permission-picker';

afterEach(cleanup);

function Picker({ locked = [], initial = [] }: { locked?: Permission[]; initial?: Permission[] }) {
  const [value, setValue] = useState<Permission[]>(initial);
  return (
    <>
      <PermissionPicker legend="Permissions" value={value} onChange={setValue} locked={locked} />
      <output data-testid="value">{value.join(',')}</output>
    </>
  );
}

const valueShown = () => screen.getByTestId('value').textContent;
const groupBox = (resource: string) =>
  screen.getByRole<HTMLInputElement>('checkbox', { name: `All ${resource} permissions` });

describe('PermissionPicker', () => {
  it('is a fieldset named by its legend, with one collapsed section per resource', () => {
    render(<Picker />);
    expect(screen.getByRole('group', { name: 'Permissions' })).toBeTruthy();
    const toggle = screen.getByRole('button', { name: /^Appointment/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('checkbox', { name: 'Add Appointment' })).toBeNull();
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const add = screen.getByRole('checkbox', { name: 'Add Appointment' });
    // Described by what it lets the caregiver do, in a sentence, and by the catalogue's own words.
    expect(
      (add.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent),
    ).toEqual(['Book a new appointment for the patient.', 'Book a new appointment']);
  });

  it('offers ready-made choices that tick their boxes, and says which one the boxes match', () => {
    render(<Picker locked={['ReadAppointment']} />);
    const choices = screen.getByRole('group', { name: 'Ready-made choices' });
    const viewOnly = screen.getByRole('button', { name: /^View only/ });
    fireEvent.click(viewOnly);
    // Every Read permission, the one already granted left out of the answer.
    expect(valueShown()).toBe(
      'ReadDoctor,ReadPharmacy,ReadPrescription,ReadLabReport,ReadMedicalHistory,ReadVitals',
    );
    expect(viewOnly.getAttribute('aria-pressed')).toBe('true');
    const medicines = screen.getByRole('button', { name: /^Help with medicines/ });
    expect(medicines.textContent).toContain('mark doses as taken');
    fireEvent.click(medicines);
    expect(valueShown()?.split(',')).toEqual(
      expect.arrayContaining(['ReadPrescription', 'AddPrescription', 'EditPrescription']),
    );
    expect(valueShown()).not.toContain('DeletePrescription');
    expect(medicines.getAttribute('aria-pressed')).toBe('true');
    expect(viewOnly.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(screen.getByRole('button', { name: /^Full help/ }));
    expect(valueShown()?.split(',')).toHaveLength(22);
    // A box changed by hand leaves the choice it matched.
    fireEvent.click(screen.getByRole('button', { name: /^Vitals/ }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Delete Vitals' }));
    expect(
      [...choices.querySelectorAll('button')].map((button) => button.getAttribute('aria-pressed')),
    ).toEqual(['false', 'false', 'false']);
  });

  it("the section's box is unchecked, mixed, then checked, and toggles the whole section", () => {
    render(<Picker />);
    fireEvent.click(screen.getByRole('button', { name: /^Appointment/ }));
    expect(groupBox('Appointment').checked).toBe(false);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Edit Appointment' }));
    expect(valueShown()).toBe('EditAppointment');
    expect(groupBox('Appointment').indeterminate).toBe(true);
    expect(groupBox('Appointment').getAttribute('aria-checked')).toBe('mixed');
    fireEvent.click(groupBox('Appointment'));
    expect(valueShown()).toBe('ReadAppointment,AddAppointment,EditAppointment,DeleteAppointment');
    expect(groupBox('Appointment').checked).toBe(true);
    expect(groupBox('Appointment').indeterminate).toBe(false);
    fireEvent.click(groupBox('Appointment'));
    expect(valueShown()).toBe('');
  });

  it('shows locked permissions checked and disabled, and never answers them', () => {
    render(<Picker locked={['ReadDoctor']} />);
    fireEvent.click(screen.getByRole('button', { name: /^Doctor/ }));
    const read = screen.getByRole<HTMLInputElement>('checkbox', { name: 'Read Doctor (granted)' });
    expect(read.checked).toBe(true);
    expect(read.disabled).toBe(true);
    expect(groupBox('Doctor').indeterminate).toBe(true);
    fireEvent.click(groupBox('Doctor'));
    expect(valueShown()).toBe('AddDoctors,DeleteDoctor,ViewDoctorProfile');
    fireEvent.click(groupBox('Doctor'));
    expect(valueShown()).toBe('');
    expect(read.checked).toBe(true);
  });

  it('disables the section box when everything in it is already granted', () => {
    render(<Picker locked={['ReadMedicalHistory']} />);
    expect(groupBox('Medical History').disabled).toBe(true);
    expect(groupBox('Medical History').checked).toBe(true);
  });

  it('answers in catalogue order whatever the order of the clicks', () => {
    render(<Picker />);
    fireEvent.click(screen.getByRole('button', { name: /^Pharmacy/ }));
    fireEvent.click(screen.getByRole('button', { name: /^Doctor/ }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Search Pharmacy' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Read Doctor' }));
    expect(valueShown()).toBe('ReadDoctor,SearchPharmacy');
  });
});

describe('permissionsByResource', () => {
  it('groups known permissions by resource in catalogue order and drops unknown ones', () => {
    expect(permissionsByResource(['AddAppointment', 'ReadDoctor', 'Nonsense', 'ReadAppointment'])).toEqual([
      { resource: 'Doctor', labels: ['Read Doctor'] },
      { resource: 'Appointment', labels: ['Read Appointment', 'Add Appointment'] },
    ]);
  });
});

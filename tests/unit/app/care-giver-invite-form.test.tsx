import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { InviteForm } from '../../../src/app/features/care-giver/invite-form';
import { http } from '../../../src/local/http';
import { OFFLINE_MESSAGE } from '../../../src/local/http-errors';
import { fakeServer, type Answer, type Call } from '../local/support';

// The invite form of /care-giver: what it sends (the invite payload), and where the server's
// answers show: a 400's field messages beside their fields, a problem with the e-mail on the e-mail field,
// anything else as the form's alert; offline it says it needs a connection and sends nothing.

let answer: Answer;
let calls: Call[];
const online = vi.spyOn(navigator, 'onLine', 'get');

beforeEach(() => {
  online.mockReturnValue(true);
  answer = { status: 200, data: { success: true, message: 'Request sent successfully' } };
  const server = fakeServer(() => answer);
  calls = server.calls;
  http.defaults.adapter = server.adapter;
});
afterEach(cleanup);
afterAll(() => online.mockRestore());

const email = () => screen.getByRole('textbox', { name: 'Caregiver email' });
const send = () => fireEvent.click(screen.getByRole('button', { name: 'Send invitation' }));

describe('InviteForm', () => {
  it('sends the invite payload and starts again empty', async () => {
    render(<InviteForm />);
    fireEvent.change(email(), { target: { value: ' Sam@Example.com ' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Family member' }), { target: { value: 'yes' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Relationship' }), { target: { value: 'Son' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'All Appointment permissions' }));
    send();
    await waitFor(() => expect(email()).toHaveProperty('value', ''));
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      method: 'POST',
      url: '/request/send-request',
      body: {
        caregiver_email: 'sam@example.com',
        is_family: true,
        relationship: 'Son',
        phone_number: null,
        permissions: ['ReadAppointment', 'AddAppointment', 'EditAppointment', 'DeleteAppointment'],
      },
    });
    expect(screen.getByRole('textbox', { name: 'Relationship' })).toHaveProperty('value', '');
  });

  it("puts a 400's messages beside their fields", async () => {
    answer = {
      status: 400,
      data: {
        success: false,
        message: 'Relationship must be at most 100 characters.',
        errors: [{ path: 'relationship', msg: 'Relationship must be at most 100 characters.' }],
      },
    };
    render(<InviteForm />);
    fireEvent.change(email(), { target: { value: 'sam@example.com' } });
    send();
    const relationship = screen.getByRole('textbox', { name: 'Relationship' });
    await waitFor(() => expect(relationship.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(`${relationship.id}-error`)?.textContent).toBe(
      'Relationship must be at most 100 characters.',
    );
    // The form keeps what was typed.
    expect(email()).toHaveProperty('value', 'sam@example.com');
  });

  it("shows the server's word about the e-mail on the e-mail field", async () => {
    answer = {
      status: 409,
      data: { success: false, message: 'A request to this caregiver is already waiting for an answer.' },
    };
    render(<InviteForm />);
    fireEvent.change(email(), { target: { value: 'sam@example.com' } });
    send();
    await waitFor(() => expect(email().getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(`${email().id}-error`)?.textContent).toBe(
      'A request to this caregiver is already waiting for an answer.',
    );
  });

  it("shows any other failure as the form's alert", async () => {
    answer = { status: 500, data: { success: false, message: 'Something went wrong' } };
    render(<InviteForm />);
    fireEvent.change(email(), { target: { value: 'sam@example.com' } });
    send();
    expect(await screen.findByText('Something went wrong')).toBeTruthy();
    expect(email().getAttribute('aria-invalid')).toBeNull();
  });

  it('offline, says it needs a connection and sends nothing', async () => {
    online.mockReturnValue(false);
    render(<InviteForm />);
    fireEvent.change(email(), { target: { value: 'sam@example.com' } });
    send();
    expect(await screen.findByText(OFFLINE_MESSAGE)).toBeTruthy();
    expect(calls).toEqual([]);
  });
});

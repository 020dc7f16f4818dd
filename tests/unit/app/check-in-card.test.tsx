import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { CHECK_IN_TEXTS } from '../../../src/domain/check-in';
import { checkInId } from '../../../src/domain/check-in-steps';
import { deviceDay } from '../../../src/domain/clock';
import { medicalHistoryId } from '../../../src/domain/medical-history';
import { STORAGE_KEYS } from '../../../src/domain/storage-keys';
import { openUserDb, type KincareDb } from '../../../src/local/db';
import { checkInOf } from '../../../src/local/check-in';
import { fakeSynthesis } from '../local/speech-fakes';

// Home's check-in card on the device's tables: the patient answers one question at a
// time with a tap, each answer queued in the outbox (so it works with no signal), the next question
// asked at once, a skip and a start-again; healthCheckinDone follows; a caregiver only reads.

const who = vi.hoisted(() => ({ role: 'Patient' as 'Caregiver' | 'Patient' }));
vi.mock('../../../src/app/shell/use-session', () => ({
  useSession: () => ({ token: 't', role: who.role, userId: 'user-pat' }),
}));
const toasts = vi.hoisted(() => [] as string[]);
vi.mock('../../../src/app/ui/toast-later', () => ({
  toastLater: (show: (toast: { success: (text: string) => void }) => void) =>
    show({ success: (text: string) => toasts.push(text) }),
}));

// Imported after the mocks above.
const { CheckInHomeCard } = await import('../../../src/app/features/check-in/check-in-home-card');

const PATIENT = '7d1f1c1e-0000-4000-8000-000000000001';
let db: KincareDb;

beforeAll(async () => {
  db = await openUserDb('check-in-card');
});
beforeEach(async () => {
  who.role = 'Patient';
  toasts.length = 0;
  localStorage.clear();
  await Promise.all([
    db.check_ins.clear(),
    db.outbox.clear(),
    db.serverRows.clear(),
    db.medical_history.clear(),
  ]);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const tap = async (name: string | RegExp) => fireEvent.click(await screen.findByRole('button', { name }));
const heading = (text: string | RegExp) => screen.findByRole('heading', { name: text });

describe('the patient', () => {
  it('answers with a tap, sees the next question at once, and each answer is queued', async () => {
    render(<CheckInHomeCard patientId={PATIENT} />);
    const first = await heading('How are you feeling today?');
    // Home's first paint leaves the focus (and the scroll) where it was.
    expect(document.activeElement).not.toBe(first);
    await tap('Good');
    const sleep = await heading('About how many hours did you sleep last night?');
    // The question's heading takes the focus, so a keyboard or screen reader follows the conversation.
    await waitFor(() => expect(document.activeElement).toBe(sleep));
    expect(screen.getByTestId('check-in-answers').textContent).toContain('Good');
    await tap('7 hours');
    await heading('How much pain are you in right now?');
    await tap('0, No pain');
    await heading('Have you noticed any of these today? Choose all that apply.');
    const entries = await db.outbox.toArray();
    expect(entries.map((entry) => [entry.resource, entry.op, entry.payload.question_id])).toEqual([
      ['check_ins', 'create', 'mood'],
      ['check_ins', 'create', 'sleep'],
      ['check_ins', 'create', 'pain'],
    ]);
    expect(entries[0]?.entityId).toBe(await checkInId(PATIENT, deviceDay()));
    expect((await checkInOf(db, PATIENT, deviceDay())).answers).toHaveLength(3);
  });

  it("chooses several symptoms, or 'None of these' alone, then Continue", async () => {
    render(<CheckInHomeCard patientId={PATIENT} />);
    await tap('Okay');
    await tap('6 hours');
    await tap('0, No pain');
    const continueButton = await screen.findByRole<HTMLButtonElement>('button', { name: 'Continue' });
    expect(continueButton.disabled).toBe(true);
    fireEvent.click(screen.getByLabelText('Cough'));
    fireEvent.click(screen.getByLabelText('Fever or chills'));
    fireEvent.click(screen.getByLabelText('None of these'));
    expect(screen.getByLabelText<HTMLInputElement>('Cough').checked).toBe(false);
    fireEvent.click(screen.getByLabelText('Headache'));
    expect(screen.getByLabelText<HTMLInputElement>('None of these').checked).toBe(false);
    fireEvent.click(continueButton);
    await heading('How much are these getting in the way of your day?');
    const [, , , symptoms] = await db.outbox.toArray();
    expect(symptoms?.payload.answer).toEqual(['headache']);
  });

  it('skips the day, says so, sets healthCheckinDone, and can start again', async () => {
    render(<CheckInHomeCard patientId={PATIENT} />);
    await tap('Skip today');
    await screen.findByText(CHECK_IN_TEXTS.skipped);
    expect(toasts).toEqual([CHECK_IN_TEXTS.skipped]);
    expect(localStorage.getItem(STORAGE_KEYS.healthCheckinDone)).toBe(deviceDay());
    await tap('Check in now');
    await heading('How are you feeling today?');
    expect(localStorage.getItem(STORAGE_KEYS.healthCheckinDone)).toBeNull();
    expect((await db.outbox.toArray()).map((entry) => entry.payload.action)).toEqual(['skip', 'reset']);
  });

  it('finishes the day with the thank-you text', async () => {
    render(<CheckInHomeCard patientId={PATIENT} />);
    for (const answer of ['Very good', '8 hours', '0, No pain']) await tap(answer);
    fireEvent.click(await screen.findByLabelText('None of these'));
    await tap('Continue');
    await tap('Yes');
    await heading(/little interest or pleasure/);
    await tap('Not at all');
    await heading(/down, depressed, or hopeless/);
    await tap('Not at all');
    await screen.findByText(CHECK_IN_TEXTS.completed);
    expect(toasts).toEqual([CHECK_IN_TEXTS.completed]);
    expect(screen.getByTestId('check-in').getAttribute('data-status')).toBe('completed');
    expect(screen.getByRole('button', { name: 'Start again' })).toBeDefined();

    // Starting again erases the day's answers: it asks first, and Cancel keeps them.
    await tap('Start again');
    const dialog = await screen.findByRole('dialog', { name: 'Start today’s check-in again?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByTestId('check-in').getAttribute('data-status')).toBe('completed');
    expect((await db.outbox.toArray()).map((entry) => entry.payload.action)).not.toContain('reset');
    await tap('Start again');
    const again = await screen.findByRole('dialog', { name: 'Start today’s check-in again?' });
    fireEvent.click(within(again).getByRole('button', { name: 'Start again' }));
    await heading('How are you feeling today?');
    expect((await db.outbox.toArray()).map((entry) => entry.payload.action)).toContain('reset');
  });
});

describe('speech', () => {
  it("with 'Read messages aloud' on, reads each next question aloud in en-US, and not before an answer", async () => {
    const synthesis = fakeSynthesis();
    localStorage.setItem(STORAGE_KEYS.isSpeechEnabled, 'true');
    render(<CheckInHomeCard patientId={PATIENT} />);
    await heading('How are you feeling today?');
    expect(synthesis.spoken).toEqual([]);
    await tap('Not so good');
    await heading('About how many hours did you sleep last night?');
    // Read aloud by an effect, once the question is on screen.
    await waitFor(() =>
      expect(synthesis.spoken).toEqual([
        { text: 'About how many hours did you sleep last night?', lang: 'en-US' },
      ]),
    );
  });

  it('says nothing when it is off', async () => {
    const synthesis = fakeSynthesis();
    render(<CheckInHomeCard patientId={PATIENT} />);
    await tap('Good');
    await heading('About how many hours did you sleep last night?');
    expect(synthesis.spoken).toEqual([]);
  });
});

describe('a caregiver', () => {
  it("reads the patient's day and is offered nothing to answer", async () => {
    who.role = 'Caregiver';
    const id = await checkInId(PATIENT, deviceDay());
    await db.check_ins.put({
      id,
      patient_id: PATIENT,
      version: 4,
      day: deviceDay(),
      status: 'in_progress',
      answers: [{ question_id: 'mood', answer: 'not_so_good' }],
    });
    render(<CheckInHomeCard patientId={PATIENT} />);
    await screen.findByText('The patient has started today’s check-in.');
    expect(screen.getByTestId('check-in-answers').textContent).toContain('Not so good');
    await waitFor(() => expect(screen.queryAllByRole('button')).toHaveLength(0));
  });

  it('sees no mood screening answer unless the patient shares it, even one the device still holds', async () => {
    who.role = 'Caregiver';
    await db.check_ins.put({
      id: await checkInId(PATIENT, deviceDay()),
      patient_id: PATIENT,
      version: 9,
      day: deviceDay(),
      status: 'completed',
      answers: [
        { question_id: 'mood', answer: 'bad' },
        { question_id: 'phq2_interest', answer: 'nearly_every_day' },
        { question_id: 'phq2_down', answer: 'nearly_every_day' },
        { question_id: 'phq2_follow_up', answer: 'yes' },
      ],
    });
    render(<CheckInHomeCard patientId={PATIENT} />);
    await screen.findByText('The patient completed today’s check-in.');
    const answers = () => screen.getByTestId('check-in-answers').textContent ?? '';
    expect(answers()).toContain('Bad');
    expect(answers()).not.toMatch(/Nearly every day|little interest|down, depressed|bring it up/);

    const id = await medicalHistoryId(PATIENT);
    await db.medical_history.put({ id, patient_id: PATIENT, version: 2, share_mood_screening: true });
    await waitFor(() => expect(answers()).toContain('Nearly every day'));
  });
});

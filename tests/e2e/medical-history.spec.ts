import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  atEachViewport,
  bearer,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  expectTapTargets,
  menuEntry,
  signIn,
  waitForServiceWorker,
} from './support';

// /medical-history and /caregiver/medical-history: the patient adds, edits and removes
// entries of each section in a sheet, offline too (the change reaches the server once online, beside an
// entry another device added meanwhile); a caregiver with Read Medical History sees the history without
// a way to change it. Every state: axe, no sideways scrolling, tap targets of 44 px, at the phone's and the
// laptop's size (each journey runs once, on a phone).

const PHONE = { width: 390, height: 844 };

type ServerHistory = {
  conditions: { name: string; status: string; onset: string | null }[];
  allergies: { substance: string; severity: string; reaction: string }[];
  immunizations: { vaccine: string; date: string | null }[];
};

async function serverHistory(request: APIRequestContext, token: string): Promise<ServerHistory> {
  const response = await request.get('/api/medical-history', { headers: bearer(token) });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()).data as ServerHistory;
}

async function openHistory(page: Page, path: RegExp = /\/medical-history$/) {
  await (await menuEntry(page, 'Medical History')).click();
  await expect(page).toHaveURL(path);
  await expect(page.getByRole('heading', { level: 1, name: 'Medical History' })).toBeVisible();
}

const section = (page: Page, name: string) => page.getByRole('group', { name });
const main = (page: Page) => page.locator('main');

async function checkScreen(page: Page, targets: Locator) {
  await atEachViewport(page, async () => {
    await expectNoAxeViolations(page);
    await expectNoHorizontalOverflow(page);
    await expectTapTargets(targets);
  });
}
const pageTargets = (page: Page) => main(page).locator('a, button, select, input');
const sheetTargets = (sheet: Locator) => sheet.getByRole('form').locator('button, select, input, textarea');

test.describe('on a phone', () => {
  test.use({ viewport: PHONE, caregiverName: 'Cora Reader', caregiverPermissions: ['ReadMedicalHistory'] });

  test('a patient adds a condition and an allergy, edits and removes them', async ({
    patientPage: page,
    patient: { token },
    request,
  }) => {
    await openHistory(page);
    for (const empty of [
      'No conditions recorded.',
      'No allergies recorded.',
      'No surgeries recorded.',
      'No family history recorded.',
      'No immunizations recorded.',
    ])
      await expect(page.getByText(empty)).toBeVisible();
    await checkScreen(page, pageTargets(page));

    // A condition: the form names what is missing, in the domain's words.
    await section(page, 'Conditions').getByRole('button', { name: 'Add condition' }).click();
    const sheet = page.getByRole('dialog', { name: 'Add condition' });
    const name = sheet.getByRole('textbox', { name: 'Condition' });
    await expect(name).toBeFocused();
    await sheet.getByRole('button', { name: 'Add condition' }).click();
    await expect(sheet.getByText('Condition name is required.')).toBeVisible();
    await name.fill('Asthma');
    await sheet.getByRole('textbox', { name: 'Onset' }).fill('2010');
    await sheet.getByRole('combobox', { name: 'Status' }).selectOption('managed');
    await checkScreen(page, sheetTargets(sheet));
    await sheet.getByRole('button', { name: 'Add condition' }).click();
    await expect(page.getByText('Condition added.')).toBeVisible();
    await expect(sheet).toBeHidden();
    await expect(section(page, 'Conditions').getByRole('heading', { name: 'Asthma' })).toBeVisible();
    await expect(section(page, 'Conditions')).toContainText('Managed · Since 2010');

    // An allergy must have its severity chosen.
    await section(page, 'Allergies').getByRole('button', { name: 'Add allergy' }).click();
    const allergy = page.getByRole('dialog', { name: 'Add allergy' });
    await allergy.getByRole('textbox', { name: 'Allergy (substance)' }).fill('Penicillin');
    await allergy.getByRole('textbox', { name: 'Reaction' }).fill('Hives');
    await allergy.getByRole('button', { name: 'Add allergy' }).click();
    await expect(
      allergy.getByText('Choose a severity: mild, moderate, severe or life-threatening.'),
    ).toBeVisible();
    await allergy.getByRole('combobox', { name: 'Severity' }).selectOption('severe');
    await allergy.getByRole('button', { name: 'Add allergy' }).click();
    await expect(page.getByText('Allergy added.')).toBeVisible();
    await expect(section(page, 'Allergies')).toContainText('Severe · Reaction: Hives');
    await checkScreen(page, pageTargets(page));
    await expect
      .poll(async () => {
        const history = await serverHistory(request, token);
        return [history.conditions.map((row) => [row.name, row.status, row.onset]), history.allergies];
      })
      .toEqual([[['Asthma', 'managed', '2010']], [expect.objectContaining({ substance: 'Penicillin' })]]);

    // Edit the allergy's severity.
    await section(page, 'Allergies').getByRole('button', { name: 'Edit Penicillin' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit allergy' });
    await expect(edit.getByRole('textbox', { name: 'Allergy (substance)' })).toHaveValue('Penicillin');
    await edit.getByRole('combobox', { name: 'Severity' }).selectOption('life_threatening');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Allergy updated.')).toBeVisible();
    await expect(section(page, 'Allergies')).toContainText('Life-threatening · Reaction: Hives');

    // Remove the condition, after a question.
    await section(page, 'Conditions').getByRole('button', { name: 'Remove Asthma' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove condition?' });
    await expect(confirm).toContainText('This removes Asthma from the conditions.');
    await checkScreen(page, confirm.getByRole('button'));
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText('Condition removed.')).toBeVisible();
    await expect(page.getByText('No conditions recorded.')).toBeVisible();
    await expect
      .poll(async () => {
        const history = await serverHistory(request, token);
        return [history.conditions.length, history.allergies.map((row) => row.severity)];
      })
      .toEqual([0, ['life_threatening']]);
  });

  test('a caregiver with Read Medical History sees the history read-only', async ({
    page,
    patient,
    caregiver,
    request,
  }) => {
    const saved = await request.put('/api/medical-history', {
      headers: bearer(patient.token),
      data: {
        allergies: [{ id: crypto.randomUUID(), substance: 'Latex', reaction: 'Rash', severity: 'moderate' }],
        lifestyle: { smoking: 'never', alcohol: 'occasional', exercise: 'moderate', notes: '' },
      },
    });
    expect(saved.ok(), await saved.text()).toBe(true);

    await signIn(page, caregiver);
    await openHistory(page, /\/caregiver\/medical-history$/);
    await expect(section(page, 'Allergies').getByRole('heading', { name: 'Latex' })).toBeVisible();
    await expect(section(page, 'Allergies')).toContainText('Moderate · Reaction: Rash');
    await expect(section(page, 'Lifestyle')).toContainText('Never smoked');
    await expect(page.getByText('No conditions recorded.')).toBeVisible();
    await expect(main(page).getByRole('button', { name: /Add|Edit|Remove/ })).toHaveCount(0);
    await checkScreen(page, pageTargets(page));
    // The section links take the keyboard to each part of the history.
    await page
      .getByRole('navigation', { name: 'Sections of the medical history' })
      .getByRole('link', { name: 'Lifestyle' })
      .click();
    await expect(page.getByRole('heading', { level: 2, name: 'Lifestyle' })).toBeFocused();
  });
});

test.describe('offline', () => {
  test.use({ viewport: PHONE });

  test('an immunization added without a signal stays after a reload and reaches the server online', async ({
    patientPage: page,
    patient: { token },
    context,
    request,
  }) => {
    await waitForServiceWorker(page);
    await openHistory(page);
    await expect(page.getByText('No immunizations recorded.')).toBeVisible();

    await context.setOffline(true);
    await expect(page.getByTestId('sync-status')).toContainText('Offline');
    await section(page, 'Immunizations').getByRole('button', { name: 'Add immunization' }).click();
    const sheet = page.getByRole('dialog', { name: 'Add immunization' });
    await sheet.getByRole('textbox', { name: 'Vaccine' }).fill('Influenza');
    await sheet.getByRole('textbox', { name: 'Date' }).fill('2025-10-01');
    await checkScreen(page, sheetTargets(sheet));
    await sheet.getByRole('button', { name: 'Add immunization' }).click();
    await expect(page.getByText('Immunization added.')).toBeVisible();

    await page.reload();
    await expect(section(page, 'Immunizations').getByRole('heading', { name: 'Influenza' })).toBeVisible();
    await expect(section(page, 'Immunizations')).toContainText('On 2025-10-01');
    await checkScreen(page, pageTargets(page));

    // Meanwhile another device adds an immunization: it sends that entry's field alone.
    const tetanus = {
      id: crypto.randomUUID(),
      vaccine: 'Tetanus',
      date: '2024',
      added_at: '2024-01-01T00:00:00Z',
    };
    const other = await request.put('/api/medical-history', {
      headers: bearer(token),
      data: { [`immunizations:${tetanus.id}`]: tetanus },
    });
    expect(other.ok(), await other.text()).toBe(true);

    await context.setOffline(false);
    // Both stay: each entry is a field of its own, so neither device's list replaces the other's.
    await expect
      .poll(async () => (await serverHistory(request, token)).immunizations, { timeout: 15_000 })
      .toEqual([
        expect.objectContaining({ vaccine: 'Tetanus', date: '2024' }),
        expect.objectContaining({ vaccine: 'Influenza', date: '2025-10-01' }),
      ]);
    // Coming online, the device sends its entry and pulls the other's.
    await expect(section(page, 'Immunizations').getByRole('heading', { name: 'Tetanus' })).toBeVisible({
      timeout: 15_000,
    });
    await expect(section(page, 'Immunizations').getByRole('heading', { name: 'Influenza' })).toBeVisible();
  });
});

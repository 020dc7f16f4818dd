import { test as base, type Page } from '@playwright/test';
import { createAccount, linkCaregiverThroughApi, signIn, type Account } from './support';

export { expect } from '@playwright/test';

// The people most browser tests start from, as fixtures: made through the API (support.ts: createAccount)
// and signed in on the page without the sign-in form, which has tests of its own. A test asks for what it
// needs and gets a new person each time:
//
//   test('...', async ({ patientPage, patient }) => { ... })   // `page`, signed in as `patient`, at home
//   test('...', async ({ caregiverPage, patient }) => { ... }) // a caregiver linked to `patient`
//
// Names and the caregiver's permissions are options (test.use({ patientName: 'Opal Offline' })). A person
// linked to nobody, or a second one, comes from createAccount.

type Options = {
  /** The name the `patient` fixture registers with. */
  patientName: string;
  /** The name the `caregiver` fixture registers with. */
  caregiverName: string;
  /** What `patient` grants `caregiver`. */
  caregiverPermissions: string[];
};

type Fixtures = {
  /** A patient on the Free plan who has accepted the beta policy. */
  patient: Account;
  /** `page`, signed in as `patient`, on their dashboard. */
  patientPage: Page;
  /** A caregiver who has accepted the beta policy, linked to `patient` with `caregiverPermissions`. */
  caregiver: Account;
  /** `page`, signed in as `caregiver`, on their dashboard. */
  caregiverPage: Page;
};

export const test = base.extend<Options & Fixtures>({
  patientName: ['Pat Patient', { option: true }],
  caregiverName: ['Cora Carer', { option: true }],
  caregiverPermissions: [['ReadAppointment'], { option: true }],
  patient: async ({ request, patientName }, use) => {
    await use(await createAccount(request, 'Patient', patientName));
  },
  patientPage: async ({ page, patient }, use) => {
    await signIn(page, patient);
    await use(page);
  },
  caregiver: async ({ request, patient, caregiverName, caregiverPermissions }, use) => {
    await use(await linkCaregiverThroughApi(request, patient.token, caregiverName, caregiverPermissions));
  },
  caregiverPage: async ({ page, caregiver }, use) => {
    await signIn(page, caregiver);
    await use(page);
  },
});

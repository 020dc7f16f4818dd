import { expect, test } from '@playwright/test';
import { createVerifiedUser, expectNoAxeViolations, signInThroughUi } from './support';

test('the profile page shows and updates the profile, and changes the password', async ({
  page,
  request,
}) => {
  const { email } = await createVerifiedUser(request, 'Patient', 'Pat Patient');
  await signInThroughUi(page, email);
  await page.getByRole('link', { name: 'Profile' }).first().click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
  await expectNoAxeViolations(page);

  const form = page.getByRole('form', { name: 'Update profile' });
  await form.getByLabel('Phone').fill('12');
  await form.getByRole('button', { name: 'Save profile' }).click();
  await expect(form.getByText('Enter a valid phone number (10 to 15 digits).')).toBeVisible();
  await form
    .getByLabel(/^Profile photo/)
    .setInputFiles({ name: 'scan.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') });
  await expect(form.getByText('Profile photo must be a PNG, JPEG or WebP image.')).toBeVisible();
  await form.getByLabel(/^Profile photo/).setInputFiles([]);
  await expect(form.getByText('Profile photo must be a PNG, JPEG or WebP image.')).toBeHidden();
  await form.getByLabel('Phone').fill('(555) 123-4567');
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Patricia Patient');
  await form.getByLabel('Birth date').fill('1980-05-17');
  await form.getByLabel('Gender').selectOption('Female');
  await form.getByLabel('Race').selectOption('Asian');
  await form.getByLabel('Ethnicity').selectOption('Not Hispanic or Not Latino');
  await form.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Profile updated successfully')).toBeVisible();
  await expect(page.getByTestId('greeting')).toContainText('Patricia Patient');
  await expect(page.getByText(/^\d+$/).first()).toBeVisible(); // the age, computed from the birth date
  await page.reload();
  await expect(form.getByLabel('Gender')).toHaveValue('Female');

  const change = page.getByRole('form', { name: 'Change password' });
  await change.getByLabel('Old password').fill('wrong-password1');
  await change.getByLabel('New password').fill('Newpass789');
  await change.getByLabel('Confirm password').fill('Newpass780');
  await change.getByRole('button', { name: 'Change password' }).click();
  await expect(change.getByText('New password and confirm password do not match.')).toBeVisible();
  await change.getByLabel('Confirm password').fill('Newpass789');
  await change.getByRole('button', { name: 'Change password' }).click();
  await expect(change.getByRole('alert')).toContainText('The old password is wrong.');
  await change.getByLabel('Old password').fill('Healthy123');
  await change.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed successfully')).toBeVisible();
  // This device got a fresh token: it stays signed in.
  await page.reload();
  await expect(page.getByTestId('greeting')).toContainText('Patricia Patient');
  const relogin = await request.post('/api/auth/login', { data: { email, password: 'Newpass789' } });
  expect(relogin.ok()).toBe(true);
});

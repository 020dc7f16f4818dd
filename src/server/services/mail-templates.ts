import type { MailMessage } from '../plugins/mail';

// The account e-mails, as plain text with a simple HTML twin. Names come from users, so they are escaped.

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export function verificationMail(to: { name: string; email: string }, link: string): MailMessage {
  return {
    to: to.email,
    subject: 'Verify your Kincare e-mail address',
    text: [
      `Hello ${to.name},`,
      '',
      'Welcome to Kincare. Open this link to verify your e-mail address (it works once, for 24 hours):',
      link,
      '',
      'If you did not sign up for Kincare, you can ignore this e-mail.',
    ].join('\n'),
    html: [
      `<p>Hello ${escapeHtml(to.name)},</p>`,
      '<p>Welcome to Kincare. Open this link to verify your e-mail address (it works once, for 24 hours):</p>',
      `<p><a href="${escapeHtml(link)}">Verify my e-mail address</a></p>`,
      '<p>If you did not sign up for Kincare, you can ignore this e-mail.</p>',
    ].join('\n'),
  };
}

/**
 * Someone signed up with an address that has an account: nothing was created, and the owner hears of it
 * here (the sign-up answered as for a new address, so it told nobody that this one is taken).
 */
export function registrationAttemptMail(
  to: { name: string; email: string },
  signInLink: string,
): MailMessage {
  return {
    to: to.email,
    subject: 'Someone tried to sign up for Kincare with your e-mail address',
    text: [
      `Hello ${to.name},`,
      '',
      'Someone tried to create a Kincare account with this e-mail address, which already has one. No new account was made and yours has not changed.',
      '',
      'If it was you, sign in with your e-mail address and password:',
      signInLink,
      'If you forgot your password, choose "Forgot password?" there to set a new one.',
      '',
      'If it was not you, you can ignore this e-mail.',
    ].join('\n'),
    html: [
      `<p>Hello ${escapeHtml(to.name)},</p>`,
      '<p>Someone tried to create a Kincare account with this e-mail address, which already has one. No new account was made and yours has not changed.</p>',
      '<p>If it was you, sign in with your e-mail address and password:</p>',
      `<p><a href="${escapeHtml(signInLink)}">Sign in to Kincare</a></p>`,
      '<p>If you forgot your password, choose "Forgot password?" there to set a new one.</p>',
      '<p>If it was not you, you can ignore this e-mail.</p>',
    ].join('\n'),
  };
}

export function resetCodeMail(to: { name: string; email: string }, code: string): MailMessage {
  return {
    to: to.email,
    subject: 'Your Kincare password reset code',
    text: [
      `Hello ${to.name},`,
      '',
      `Your code to reset your Kincare password is ${code}. It is valid for 10 minutes.`,
      '',
      'If you did not ask for a new password, you can ignore this e-mail; your password stays as it is.',
    ].join('\n'),
    html: [
      `<p>Hello ${escapeHtml(to.name)},</p>`,
      `<p>Your code to reset your Kincare password is <strong>${code}</strong>. It is valid for 10 minutes.</p>`,
      '<p>If you did not ask for a new password, you can ignore this e-mail; your password stays as it is.</p>',
    ].join('\n'),
  };
}

/** A patient invited someone without an account: the link registers them as this patient's caregiver. */
export function careInviteMail(
  to: { email: string },
  patientName: string,
  link: string,
  validHours: number,
): MailMessage {
  return {
    to: to.email,
    // The subject goes to the log (plugins/mail.ts): no names in it.
    subject: 'You are invited to Kincare as a caregiver',
    text: [
      'Hello,',
      '',
      `${patientName} invited you to Kincare as a caregiver, to help with their health records.`,
      `Open this link to create your account (it works once, for ${validHours} hours):`,
      link,
      '',
      'If you do not know this person, you can ignore this e-mail.',
    ].join('\n'),
    html: [
      '<p>Hello,</p>',
      `<p>${escapeHtml(patientName)} invited you to Kincare as a caregiver, to help with their health records.</p>`,
      `<p>Open this link to create your account (it works once, for ${validHours} hours):</p>`,
      `<p><a href="${escapeHtml(link)}">Accept the invitation</a></p>`,
      '<p>If you do not know this person, you can ignore this e-mail.</p>',
    ].join('\n'),
  };
}

/** A patient invited a caregiver who has an account: they answer the request after signing in. */
export function careRequestMail(
  to: { name: string; email: string },
  patientName: string,
  signInLink: string,
): MailMessage {
  return {
    to: to.email,
    subject: 'A patient invited you to be their caregiver on Kincare',
    text: [
      `Hello ${to.name},`,
      '',
      `${patientName} invited you to be their caregiver on Kincare.`,
      'Sign in to accept or decline the request:',
      signInLink,
      '',
      'If you do not know this person, you can decline the request or ignore this e-mail.',
    ].join('\n'),
    html: [
      `<p>Hello ${escapeHtml(to.name)},</p>`,
      `<p>${escapeHtml(patientName)} invited you to be their caregiver on Kincare.</p>`,
      '<p>Sign in to accept or decline the request:</p>',
      `<p><a href="${escapeHtml(signInLink)}">Sign in to Kincare</a></p>`,
      '<p>If you do not know this person, you can decline the request or ignore this e-mail.</p>',
    ].join('\n'),
  };
}

/**
 * A patient invited an address whose account is not a caregiver's (a patient's, a doctor's): it cannot
 * accept with that account, and is told how to help. The patient is not told (their list shows the
 * invitation as waiting, like any other).
 */
export function careRequestForOtherAccountMail(
  to: { name: string; email: string },
  patientName: string,
): MailMessage {
  return {
    to: to.email,
    subject: 'A patient invited you to be their caregiver on Kincare',
    text: [
      `Hello ${to.name},`,
      '',
      `${patientName} invited you to be their caregiver on Kincare.`,
      'Your Kincare account with this e-mail address is not a caregiver account, so you cannot accept with it.',
      `To help ${patientName}, ask them to invite another e-mail address of yours: the invitation then lets you create a caregiver account.`,
      '',
      'If you do not know this person, you can ignore this e-mail.',
    ].join('\n'),
    html: [
      `<p>Hello ${escapeHtml(to.name)},</p>`,
      `<p>${escapeHtml(patientName)} invited you to be their caregiver on Kincare.</p>`,
      '<p>Your Kincare account with this e-mail address is not a caregiver account, so you cannot accept with it.</p>',
      `<p>To help ${escapeHtml(patientName)}, ask them to invite another e-mail address of yours: the invitation then lets you create a caregiver account.</p>`,
      '<p>If you do not know this person, you can ignore this e-mail.</p>',
    ].join('\n'),
  };
}

/** A caregiver asked for more permissions: the patient hears of it, since the app is not always open. */
export function permissionRequestMail(
  to: { name: string; email: string },
  caregiverName: string,
  permissions: readonly string[],
  answerLink: string,
): MailMessage {
  return {
    to: to.email,
    subject: `${caregiverName} asks for more access to your Kincare records`,
    text: [
      `Hello ${to.name},`,
      '',
      `${caregiverName}, your caregiver on Kincare, asks to be allowed to:`,
      ...permissions.map((permission) => `- ${permission}`),
      '',
      'Nothing changes until you accept. To accept or decline, sign in and open Caregiver Permissions Request:',
      answerLink,
    ].join('\n'),
    html: [
      `<p>Hello ${escapeHtml(to.name)},</p>`,
      `<p>${escapeHtml(caregiverName)}, your caregiver on Kincare, asks to be allowed to:</p>`,
      `<ul>${permissions.map((permission) => `<li>${escapeHtml(permission)}</li>`).join('')}</ul>`,
      '<p>Nothing changes until you accept. To accept or decline, sign in and open Caregiver Permissions Request:</p>',
      `<p><a href="${escapeHtml(answerLink)}">Answer the request</a></p>`,
    ].join('\n'),
  };
}

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

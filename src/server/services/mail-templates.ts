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

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import nodemailer from 'nodemailer';

// Outgoing mail. With SMTP_URL it goes out through SMTP (nodemailer); without it each message is written
// to DATA_DIR/mail as an .eml file and logged, so a one-machine install (and the tests) can read it.
// The log says that a mail went out and which kind (its subject), never to whom: an address in a log is
// personal data that outlives the mail, and the local mailbox file's name holds it, so that is left out too.

export type MailMessage = { to: string; subject: string; text: string; html?: string };

declare module 'fastify' {
  interface FastifyInstance {
    sendMail: (message: MailMessage) => Promise<void>;
  }
}

export function mailDirFor(dataDir: string): string {
  return join(dataDir, 'mail');
}

export const mailPlugin = fp(async (app: FastifyInstance) => {
  const { smtpUrl, mailFrom, dataDir } = app.config;
  if (smtpUrl) {
    const transport = nodemailer.createTransport(smtpUrl);
    app.addHook('onClose', async () => transport.close());
    app.decorate('sendMail', async (message: MailMessage) => {
      await transport.sendMail({ from: mailFrom, ...message });
      app.log.info({ subject: message.subject }, 'mail sent over SMTP');
    });
    return;
  }
  const mailDir = mailDirFor(dataDir);
  mkdirSync(mailDir, { recursive: true });
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  app.decorate('sendMail', async (message: MailMessage) => {
    const info = await transport.sendMail({ from: mailFrom, ...message });
    const safeTo = message.to.replace(/[^a-z0-9@._-]/gi, '_');
    const file = join(mailDir, `${Date.now()}-${safeTo}.eml`);
    mkdirSync(mailDir, { recursive: true }); // the folder may have been emptied (tests, an operator)
    writeFileSync(file, info.message as Buffer);
    app.log.info({ subject: message.subject }, 'mail written to the local mailbox');
  });
});

// One mailer, two transports: SMTP through nodemailer when SMTP_URL is set, else the log (for `npm start` on a
// laptop: the sign-in link appears in the terminal). The log transport is the only place a link is logged.
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { Logger } from 'pino';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'log';
  send(message: MailMessage): Promise<void>;
}

export interface MailerConfig {
  SMTP_URL?: string;
  MAIL_FROM: string;
}

/**
 * Without SMTP the mail also goes to the terminal as plain lines (`print`, stderr by default), so the sign-in link
 * can be copied from a line of its own rather than out of a JSON log line.
 */
export function createMailer(config: MailerConfig, log: Logger, print: (text: string) => void = (text) => void process.stderr.write(text)): Mailer {
  if (!config.SMTP_URL) {
    log.warn('SMTP_URL is not set: sign-in mails are written to this log instead of being sent');
    return {
      kind: 'log',
      async send(message) {
        log.info({ mail: { from: config.MAIL_FROM, ...message } }, 'mail not sent (SMTP_URL unset): written here');
        print(`\n--- Mail to ${message.to} (not sent: SMTP_URL is unset): ${message.subject}\n${message.text.trim()}\n---\n\n`);
      },
    };
  }
  // Short timeouts: a person is waiting on the page while the mail goes out.
  const options: SMTPTransport.Options = { url: config.SMTP_URL, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 15_000 };
  const transport = nodemailer.createTransport(options);
  return {
    kind: 'smtp',
    async send(message) {
      await transport.sendMail({ from: config.MAIL_FROM, to: message.to, subject: message.subject, text: message.text });
    },
  };
}

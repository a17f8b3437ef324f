// A real SMTP server on loopback (smtp-server) that keeps every message it receives, parsed by mailparser,
// for the console's sign-in mails. SMTP_URL for the app: smtp://127.0.0.1:<port>.
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import { HANG_MS } from './wait-for.js';

export interface Inbox {
  smtpUrl: string;
  messages: ParsedMail[];
  /** The next message to this address not yet taken (waits up to 10 s). */
  next(to: string): Promise<ParsedMail>;
  /** The sign-in link of the next message to this address. */
  nextLink(to: string): Promise<string>;
  /** Makes the server refuse every message from now on (a mail server that is down for us). */
  refuseAll(): void;
  close(): Promise<void>;
}

export async function startInbox(t: Pick<TestContext, 'after'> | null): Promise<Inbox> {
  const messages: ParsedMail[] = [];
  const taken = new Set<ParsedMail>();
  const waiters: (() => void)[] = [];
  let refusing = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      if (refusing) {
        stream.resume();
        stream.on('end', () => callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 })));
        return;
      }
      simpleParser(stream).then(
        (mail) => {
          messages.push(mail);
          for (const w of waiters.splice(0)) w();
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const addressed = (m: ParsedMail, to: string) =>
    (Array.isArray(m.to) ? m.to : m.to ? [m.to] : []).some((a) => a.value.some((v) => v.address === to));
  const next = async (to: string): Promise<ParsedMail> => {
    const deadline = Date.now() + HANG_MS;
    for (;;) {
      const found = messages.find((m) => !taken.has(m) && addressed(m, to));
      if (found) {
        taken.add(found);
        return found;
      }
      if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${HANG_MS / 1000} s`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  };
  let closed = false;
  const inbox: Inbox = {
    smtpUrl: `smtp://127.0.0.1:${port}`,
    messages,
    next,
    async nextLink(to) {
      const mail = await next(to);
      const link = /https?:\/\/\S+\/console\/sign-in\/confirm\?token=[A-Za-z0-9_-]+/.exec(mail.text ?? '')?.[0];
      if (!link) throw new Error(`no sign-in link in the mail to ${to}`);
      return link;
    },
    refuseAll() {
      refusing = true;
    },
    async close() {
      if (closed) return;
      closed = true;
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  t?.after(() => inbox.close());
  return inbox;
}

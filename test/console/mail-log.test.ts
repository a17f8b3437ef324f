// Mail without SMTP_URL goes to the log (one start-up warning, the message with its link at info); with the
// real SMTP mailer, no token, key or session id reaches the log; the mail settings are validated at start-up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createMailer } from '../../accounts/mailer.js';
import { createApp } from '../../server/app.js';
import { loadConfig, testConfig, ConfigError } from '../../lib/config.js';
import { SqliteRepo } from '../../db/sqlite/repo.js';
import { startInbox } from '../helpers/smtp.js';
import { ConsoleClient } from '../helpers/console-client.js';

function captured() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      cb();
    },
  });
  return { lines, log: pino({ level: 'info' }, stream) };
}

test('without SMTP_URL: one warning at start, the mail with its link logged at info', async () => {
  const { lines, log } = captured();
  const printed: string[] = [];
  const mailer = createMailer({ MAIL_FROM: 'Store Readiness <no-reply@localhost>' }, log, (text) => printed.push(text));
  assert.equal(mailer.kind, 'log');
  await mailer.send({ to: 'a@shop.test', subject: 'Sign in', text: 'Open this link:\nhttp://localhost:3000/console/sign-in/confirm?token=abc\nIt works once.' });
  // In the terminal, the link stands on a line of its own, ready to copy.
  assert.ok(printed.join('').split('\n').includes('http://localhost:3000/console/sign-in/confirm?token=abc'), printed.join(''));
  assert.match(printed.join(''), /Mail to a@shop\.test \(not sent: SMTP_URL is unset\): Sign in/);
  await new Promise((r) => setImmediate(r));
  assert.equal(lines.filter((l) => l.level === 40).length, 1);
  assert.match(String(lines[0].msg), /SMTP_URL is not set/);
  const mail = lines.find((l) => l.level === 30)?.mail as { to: string; text: string };
  assert.equal(mail.to, 'a@shop.test');
  assert.match(mail.text, /token=abc/);
});

test('mail settings are validated at start-up', () => {
  assert.throws(() => loadConfig({ SMTP_URL: 'http://mail.example' }), (e: Error) => e instanceof ConfigError && /SMTP_URL/.test(e.message));
  assert.throws(() => loadConfig({ MAIL_FROM: 'nobody' }), /MAIL_FROM/);
  assert.equal(loadConfig({ SMTP_URL: 'smtps://u:p@mail.example:465' }).SMTP_URL, 'smtps://u:p@mail.example:465');
  assert.equal(loadConfig({ BASE_URL: 'https://ready.example' }).MAIL_FROM, 'Store Readiness <no-reply@ready.example>');
});

test('with SMTP: a whole sign-in, key creation and key use log no token, session id or key', async (t) => {
  const inbox = await startInbox(t);
  const { lines, log } = captured();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const db = new SqliteRepo(':memory:');
  await db.init();
  server.on('request', createApp({ config: testConfig({ SMTP_URL: inbox.smtpUrl, BASE_URL: url, LOG_LEVEL: 'info' }), db, log }));
  t.after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await db.close();
  });
  const client = new ConsoleClient(url);
  const link = await client.requestLink(inbox, 'quiet@shop.test');
  const token = new URL(link).searchParams.get('token')!;
  await client.get(new URL(link).pathname + new URL(link).search);
  await client.confirm(link, 'quiet@shop.test');
  const created = await client.post('/console/keys', { csrf: await client.csrf(), name: 'k' });
  const key = /value="(srk_[^"]+)"/.exec(created.text)![1];
  await fetch(`${url}/api/v1/reports`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{"hosts":["a.test"]}' });
  await new Promise((r) => setTimeout(r, 50));
  const all = JSON.stringify(lines);
  assert.ok(lines.length > 5, 'requests were logged');
  assert.ok(all.includes('token=[redacted]'), 'the confirm URL is logged without its token');
  for (const secret of [token, client.cookie!, key]) assert.ok(!all.includes(secret), 'a secret reached the log');
});

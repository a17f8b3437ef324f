// The fatal line's `err`: pino's type, message and stack, a code when there is one, nothing else of the error
// (its other properties may hold request headers or connection details), and URL passwords masked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fatalErr } from '../../server/fatal.js';

test('an Error keeps type, message, stack and code; other properties and URL passwords are left out', () => {
  const err = Object.assign(new SyntaxError('bad reply from smtp://mailer:hunter2@mail.example:587'), {
    code: 'EPROTO',
    options: { headers: { authorization: 'Bearer sk_live_abc' } },
  });
  const out = fatalErr(err);
  assert.deepEqual(Object.keys(out).sort(), ['code', 'message', 'stack', 'type']);
  assert.equal(out.type, 'SyntaxError');
  assert.equal(out.code, 'EPROTO');
  assert.equal(out.message, 'bad reply from smtp://mailer:[redacted]@mail.example:587');
  assert.match(out.stack!, /^SyntaxError: bad reply from smtp:\/\/mailer:\[redacted\]@mail\.example:587\n\s+at /);
  assert.doesNotMatch(JSON.stringify(out), /hunter2|sk_live/);
});

test('a rejection with something other than an Error is named by its type, without a stack', () => {
  assert.deepEqual(fatalErr('gave up on mongodb://u:p@db.example'), { type: 'string', message: 'gave up on mongodb://u:[redacted]@db.example' });
  assert.deepEqual(fatalErr(undefined), { type: 'undefined', message: 'undefined' });
});

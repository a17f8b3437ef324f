// The fatal line's `err`: pino's type, message and stack, a code when there is one, nothing else of the error
// (its other properties may hold request headers or connection details), and URL passwords masked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fatalErr, maskCredentials } from '../../server/fatal.js';
import { assertLinear } from '../helpers/timing.js';

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

test('every credential form in a URL is masked: passwords holding / or @, a token as user name, password= parameters', () => {
  const cases: [string, string][] = [
    ['smtps://user:pa/ss@mail.example:465', 'smtps://user:[redacted]@mail.example:465'],
    ['mongodb+srv://a:p@ss@cluster.example/db', 'mongodb+srv://a:[redacted]@cluster.example/db'],
    ['redis://:only-pass@cache.example', 'redis://:[redacted]@cache.example'],
    ['https://ghp_token123@git.example/repo', 'https://[redacted]@git.example/repo'],
    ['mongodb://db.example/?authSource=admin&password=hunter2&w=1', 'mongodb://db.example/?authSource=admin&password=[redacted]&w=1'],
    ['https://api.example/x?api_key=k1&access_token=t1', 'https://api.example/x?api_key=[redacted]&access_token=[redacted]'],
    ['login failed: pwd=s3cret; passwd=other secret=x', 'login failed: pwd=[redacted]; passwd=[redacted] secret=[redacted]'],
    ['no credentials at https://shop.example/p?id=1 or user@example.com', 'no credentials at https://shop.example/p?id=1 or user@example.com'],
  ];
  for (const [message, masked] of cases) assert.equal(fatalErr(new Error(message)).message, masked, message);
  const err = fatalErr(new Error('lost mongodb+srv://a:p@ss@h'));
  assert.doesNotMatch(JSON.stringify(err), /p@ss|ss@h/);
});

test('masking a long line costs time linear in its length', () => {
  // Inputs and masked outputs larger than the processor's caches on both sides (600 KB and more): with a small side
  // that fits them, a linear mask measured twice as slow per byte on the large side.
  assertLinear('URL schemes in one run', 100_000, (n) => `${'a://b:'.repeat(n)}${'x'.repeat(n)}@h ${n}`, maskCredentials);
  assertLinear('parameters', 100_000, (n) => `${'pwd=x&'.repeat(n)} ${n}`, maskCredentials);
});

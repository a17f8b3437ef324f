// An error nothing catches in the running server (a throw from a timer, a promise rejected and never awaited) ends
// the process with exit code 1 after one JSON line at level fatal that names the error and carries its stack in
// `err`; no raw Node stack is printed and a password in the message is masked. The real entry in its own process,
// with a test-only module (test/support/throw-on-request.ts) that raises the error once the server listens.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startChildServer } from '../support/child-server.js';

for (const [path, type, what] of [
  ['/__throw', 'TypeError', 'uncaught exception'],
  ['/__reject', 'RangeError', 'unhandled promise rejection'],
] as const) {
  test(`${what} in the running server: one fatal JSON line, then exit 1`, async (t) => {
    const server = await startChildServer({ env: { MONITOR: 'off' }, imports: ['./test/support/throw-on-request.ts'] });
    t.after(() => server.kill('SIGKILL'));
    await fetch(new URL(path, server.url)).then((res) => res.text()).catch(() => undefined); // the process may die before answering
    const exit = await server.exited;
    const { stdout, stderr } = server.output();
    assert.equal(exit.code, 1, stderr);

    const lines = stdout.split('\n').filter(Boolean);
    for (const line of lines) assert.doesNotThrow(() => JSON.parse(line), `not JSON: ${line}`);
    assert.equal(stderr.trim(), '', 'nothing on stderr');
    const last = JSON.parse(lines.at(-1)!) as { level: number; msg: string; err: { type: string; message: string; stack: string } };
    assert.equal(last.level, 60);
    assert.match(last.msg, new RegExp(`^${what}: lost mongodb://reader:\\[redacted\\]@db\\.example`));
    assert.equal(last.err.type, type);
    assert.match(last.err.stack, new RegExp(`^${type}: lost .*\\n\\s+at .*throw-on-request\\.ts`));
    assert.equal(lines.filter((l) => JSON.parse(l).level === 60).length, 1, 'one fatal line');
    assert.doesNotMatch(stdout + stderr, /s3cret-pass/);
  });
}

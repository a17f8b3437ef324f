// Loaded with `node --import` into a child server by test/runtime/fatal-error.test.ts, never by the service: a
// request to /__throw throws from a timer and one to /__reject leaves a rejected promise unawaited, both outside
// any request handler, as a bug in a callback would. The message carries a password in a URL, which the fatal
// line must mask. Seen through Node's own HTTP diagnostics channel, so the service's code is untouched.
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';

const message = 'lost mongodb://reader:s3cret-pass@db.example:27017/app';

subscribe('http.server.request.start', (event) => {
  const { url } = (event as { request: IncomingMessage }).request;
  if (url === '/__throw') {
    setTimeout(() => {
      throw new TypeError(message);
    }, 10);
  } else if (url === '/__reject') {
    setTimeout(() => void Promise.reject(new RangeError(message)), 10);
  }
});

// A browser-like HTTP client for the console tests: keeps the session cookie, sends Origin on POSTs like a
// browser does, and signs in through the real mail link.
import assert from 'node:assert/strict';
import { call, type Answer } from './start-app.js';
import { SESSION_COOKIE } from '../../lib/same-site.js';
import type { Inbox } from './smtp.js';

export class ConsoleClient {
  cookie: string | null = null;
  /** The session cookie's name: the tests' BASE_URLs are https or loopback, so the __Host- one. */
  readonly cookieName = SESSION_COOKIE;
  constructor(readonly base: string) {}

  private remember(a: Answer): Answer {
    const set = a.headers.getSetCookie().find((c) => c.startsWith(`${this.cookieName}=`));
    if (set) {
      const value = set.split(';')[0].slice(this.cookieName.length + 1);
      this.cookie = value && !/Expires=Thu, 01 Jan 1970/i.test(set) ? value : null;
    }
    return a;
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
    return this.remember(await call(this.base + path, { headers: { ...(this.cookie ? { cookie: `${this.cookieName}=${this.cookie}` } : {}), ...headers } }));
  }

  async post(path: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Answer> {
    return this.remember(
      await call(this.base + path, {
        method: 'POST',
        body: new URLSearchParams(form).toString(),
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: this.base,
          ...(this.cookie ? { cookie: `${this.cookieName}=${this.cookie}` } : {}),
          ...headers,
        },
      }),
    );
  }

  /** The CSRF token of a console page's forms. */
  async csrf(path = '/console/keys'): Promise<string> {
    const page = await this.get(path);
    const token = /name="csrf" value="([^"]+)"/.exec(page.text)?.[1];
    assert.ok(token, `no CSRF field on ${path} (status ${page.status})`);
    return token;
  }

  async requestLink(inbox: Inbox, email: string, next?: string): Promise<string> {
    const sent = await this.post('/console/sign-in', { email, ...(next ? { next } : {}) });
    assert.equal(sent.status, 200, sent.text);
    return inbox.nextLink(email);
  }

  /** The confirm form's POST for a mailed link (the token and the address the confirm page shows). */
  async confirm(link: string, email: string): Promise<Answer> {
    const token = new URL(link).searchParams.get('token')!;
    return this.post('/console/sign-in/confirm', { token, email });
  }

  async signIn(inbox: Inbox, email: string): Promise<void> {
    const link = await this.requestLink(inbox, email);
    const done = await this.confirm(link, email);
    assert.equal(done.status, 303, done.text);
    assert.ok(this.cookie, 'signed in');
  }
}

// What the running server does with an error nothing caught (a thrown callback, a rejected promise no one awaits):
// one JSON line at level fatal, then exit 1. The process state is unknown after such an error, so it does not try to
// drain; the orchestrator restarts it, and the line says why, instead of a raw Node stack among the JSON lines.
import { stdSerializers, type Logger } from 'pino';

/** The error as pino serialises it (type, message, stack, code), with credentials masked. */
export interface FatalErr {
  type: string;
  message: string;
  stack?: string;
  code?: string | number;
}

/** Parameters whose value is a credential, in a query string or a driver's "key=value" message. */
const SECRET_PARAM = /\b(pass(?:word|wd)?|pwd|secret|token|api[-_]?key|access[-_]?token|auth)=[^&\s;,'"]*/gi;

/**
 * Credentials in the text: the user info of every URL (the password after "user:", or the whole of it when it is a
 * bare token) and password-style parameters. A URL's user info runs to its last "@", since drivers print passwords
 * holding "/" or "@" unencoded. One pass over each space-free run, so a long line costs time linear in its length.
 */
export function maskCredentials(text: string): string {
  return text.replace(/\S+/g, (run) => {
    const start = run.indexOf('://') + 3;
    const at = run.lastIndexOf('@');
    if (start < 3 || at < start) return run.replace(SECRET_PARAM, '$1=[redacted]');
    const userinfo = run.slice(start, at);
    const colon = userinfo.indexOf(':');
    const masked = colon < 0 ? '[redacted]' : `${userinfo.slice(0, colon + 1)}[redacted]`;
    return `${run.slice(0, start)}${masked}${run.slice(at).replace(SECRET_PARAM, '$1=[redacted]')}`;
  });
}
const mask = maskCredentials;

/**
 * pino's own serialisation (type from the class, the stack with its causes), keeping only the fields that describe
 * the error: other enumerable properties (a request's options and headers, a driver's connection details) are left
 * out, since they can carry secrets.
 */
export function fatalErr(reason: unknown): FatalErr {
  if (!(reason instanceof Error)) return { type: typeof reason, message: mask(String(reason)) };
  const { type, message, stack, code } = stdSerializers.err(reason) as { type: string; message: string; stack?: string; code?: unknown };
  return {
    type,
    message: mask(message),
    ...(stack ? { stack: mask(stack) } : {}),
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
  };
}

/** Installs the process-wide handlers; `exit` is process.exit, passed in so the line is written before it. */
export function exitOnUncaughtErrors(log: Logger, exit: (code: number) => never = process.exit): void {
  let done = false;
  const die = (what: string, reason: unknown) => {
    if (done) return; // a second error while exiting adds nothing
    done = true;
    const err = fatalErr(reason);
    // err is already serialised: the child keeps it as it is rather than serialise it again.
    log.child({}, { serializers: { err: (e: FatalErr) => e } }).fatal({ err }, `${what}: ${err.message}`);
    log.flush(); // pino's stdout destination writes synchronously; flush covers a buffered one
    exit(1);
  };
  process.on('uncaughtException', (err, origin) => die(origin === 'unhandledRejection' ? 'unhandled promise rejection' : 'uncaught exception', err));
  process.on('unhandledRejection', (reason) => die('unhandled promise rejection', reason));
}

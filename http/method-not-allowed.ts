// 405 for a known path asked with another method, the same on every surface (API, pages, documents).
import type { Request, Response } from 'express';
import { AppError } from '../lib/errors.js';

/** 405 with Allow. GET paths also allow HEAD, unless a HEAD would start work the way a GET does (`head` false). */
export function methodNotAllowed(methods: string[], head = true) {
  const allow = head && methods.includes('GET') ? [...methods, 'HEAD'] : methods;
  return (req: Request, _res: Response, next: (err: unknown) => void) => {
    next(
      new AppError('METHOD_NOT_ALLOWED', `${req.method} is not allowed here; use ${allow.join(' or ')}.`, undefined, {
        Allow: allow.join(', '),
      }),
    );
  };
}

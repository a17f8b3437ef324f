// GET /.well-known/http-message-signatures-directory: the scanner's key directory (bot-auth/directory.ts), so a
// site can verify the signatures our scans carry. Public metadata: CORS *, cached as its Cache-Control says.
import { Router } from 'express';
import { methodNotAllowed } from '../http/method-not-allowed.js';
import { DIRECTORY_PATH, type DirectoryAnswer } from '../bot-auth/directory.js';

export function signatureDirectoryRouter(answer: () => Promise<DirectoryAnswer>): Router {
  const router = Router({ strict: true, caseSensitive: true });
  router.get(DIRECTORY_PATH, async (_req, res, next) => {
    try {
      const { body, headers } = await answer();
      res.setHeader('Access-Control-Allow-Origin', '*');
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      res.send(body);
    } catch (err) {
      next(err); // the store failing: the error handler's 503
    }
  });
  router.all(DIRECTORY_PATH, methodNotAllowed(['GET']));
  return router;
}

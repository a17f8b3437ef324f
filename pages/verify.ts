// GET /verify/{host}: 302 to the host's latest public report (302 is the contract). The Location is built only from
// config.BASE_URL and an integer scan id, so no path can send a visitor off our origin (docs/security.md O3).
// Unknown or delisted hosts get a 404: an HTML page offering a scan to browsers, the JSON Error to everyone else.
import { Router, type Request, type Response } from 'express';
import type { Config } from '../lib/config.js';
import type { Repository } from '../db/repo.js';
import { AppError } from '../lib/errors.js';
import { isHostName } from '../lib/hosts.js';
import { hostNotScanned, reportUrl } from '../tools/readiness.js';
import { indexHost } from '../lib/hosts.js';
import { html, messagePage, sendPage } from './html.js';
import { methodNotAllowed } from '../http/method-not-allowed.js';

// Browsers ask for text/html explicitly; fetch, curl and agents (a wildcard Accept, or JSON) get the JSON Error.
export const wantsHtml = (req: Request): boolean => /\btext\/html\b/i.test(req.get('accept') ?? '');

export function verifyRouter(deps: { config: Config; db: Repository }): Router {
  const router = Router({ caseSensitive: true, strict: true });

  router.get('/verify/:host', async (req: Request, res: Response) => {
    const raw = req.params.host;
    // Decoded already: "%2F%2Fevil.test" is "//evil.test", "%0d%0a" a CRLF. Only a bare host name goes further.
    if (typeof raw !== 'string' || !isHostName(raw)) {
      throw new AppError('INVALID_PARAMS', 'The verify path must be /verify/<host> with a store host name such as shop.example.com.');
    }
    const host = indexHost(raw);
    const entry = await deps.db.latestByHost(host);
    if (!entry || !Number.isSafeInteger(entry.scanId) || entry.scanId < 1) {
      if (!wantsHtml(req)) throw hostNotScanned(host);
      const scanLink = `/?url=${encodeURIComponent(`https://${host}`)}`;
      sendPage(
        res,
        messagePage({
          title: 'No report yet',
          heading: `No public report for ${host} yet`,
          body: html`<p>This store has not been scanned, or its owner asked us to remove it from the public index.</p>
<p>If it is your store, scan it now: it usually takes a few seconds and you get a score, a grade and a prioritised list of fixes.</p>
<p><a class="button" href="${scanLink}">Scan ${host}</a></p>`,
        }),
        { status: 404 },
      );
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Location', reportUrl(deps.config.BASE_URL, entry.scanId));
    res.status(302).end();
  });

  router.all('/verify/:host', methodNotAllowed(['GET']));
  // Extra segments ("/verify/a%0d%0aLocation:%20http://evil.test" has real slashes) are not a host either.
  router.all('/verify/{*rest}', () => {
    throw new AppError('INVALID_PARAMS', 'The verify path must be /verify/<host> with a store host name such as shop.example.com.');
  });

  return router;
}

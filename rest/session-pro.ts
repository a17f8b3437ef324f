// Which API requests a signed-in console session may carry as the Pro key: the agent brief opened from the
// report page, and a scan started from the home page form, each only from this site. Everything else on the
// API needs a Bearer key, so the API keeps no cookie-driven surface another site could trigger.
import type { Request } from 'express';
import { cookieOf, fromOwnSite, sessionCookie } from '../lib/same-site.js';

const BRIEF_PATH = /^\/api(?:\/v1)?\/scan\/\d{1,15}\/brief\.md$/;

export function sessionCarriesPro(req: Request, baseUrl: string): boolean {
  const eligible =
    ((req.method === 'GET' || req.method === 'HEAD') && BRIEF_PATH.test(req.path)) || (req.method === 'POST' && req.path === '/scan');
  return eligible && fromOwnSite(req, baseUrl);
}

export const sessionTokenOf = (req: Request, baseUrl: string): string | undefined => cookieOf(req, sessionCookie(baseUrl).name);

// GET /badge/{host}.svg: the score badge, drawn by badge-maker from our own latest scan, never
// from anything the store sends. Only the label, score and grade reach the SVG; no links, no logo. A path that is
// not a host name is a 400 JSON error (docs/security.md O2); an unknown or delisted host gets a grey "not scanned".
import { createHash } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { makeBadge } from 'badge-maker';
import { AppError } from '../lib/errors.js';
import type { Repository } from '../db/repo.js';
import { isHostName } from '../lib/hosts.js';
import { indexHost } from '../lib/hosts.js';
import { methodNotAllowed } from '../http/method-not-allowed.js';
import { agentReadyVerified } from '../tools/readiness.js';

/** The label says "agent-ready" only for a store that meets the agent-ready rule; every other badge measures. */
export const BADGE_LABEL = 'agent-ready';
export const BADGE_LABEL_SCORE = 'agent readiness';

const GRADE_COLOURS: Record<string, string> = { A: 'brightgreen', B: 'green', C: 'yellow', D: 'orange', E: 'red' };

interface Badge {
  svg: string;
  etag: string;
}

// At most 101 × 5 + 1 distinct badges exist, so every one is rendered once and kept.
const rendered = new Map<string, Badge>();

/**
 * The badge for a score and grade, or the grey "not scanned" badge when there is no public scan. `agentReady`
 * is whether the agent-ready rule holds now (agentReadyVerified), which alone earns the "agent-ready" label.
 */
export function badgeFor(entry: { score: number; grade: string; agentReady?: boolean } | null): Badge {
  const score = entry && Number.isInteger(entry.score) && entry.score >= 0 && entry.score <= 100 ? entry.score : null;
  const grade = entry && entry.grade in GRADE_COLOURS ? entry.grade : null;
  const ready = entry?.agentReady === true;
  const key = score === null || grade === null ? 'none' : `${score}${grade}${ready ? 'R' : ''}`;
  let badge = rendered.get(key);
  if (!badge) {
    const svg =
      key === 'none'
        ? makeBadge({ label: BADGE_LABEL_SCORE, message: 'not scanned', color: 'lightgrey' })
        : makeBadge({ label: ready ? BADGE_LABEL : BADGE_LABEL_SCORE, message: `${score} ${grade}`, color: GRADE_COLOURS[grade as string] });
    badge = { svg, etag: `"${createHash('sha256').update(svg).digest('base64url').slice(0, 27)}"` };
    rendered.set(key, badge);
  }
  return badge;
}

/** docs/security.md "SVG badge": an SVG opened directly is a document, so it gets a CSP of its own. */
const BADGE_HEADERS: Record<string, string> = {
  'Content-Type': 'image/svg+xml; charset=utf-8',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
  'Cache-Control': 'public, max-age=3600',
  'Cross-Origin-Resource-Policy': 'cross-origin',
};

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

export function badgeRouter(deps: { db: Repository }): Router {
  const router = Router({ caseSensitive: true, strict: true });

  router.get('/badge/:host.svg', async (req: Request, res: Response) => {
    const raw = req.params.host;
    // The parameter arrives percent-decoded ("%3Csvg…" is "<svg…"): validate before anything else, echo nothing.
    if (typeof raw !== 'string' || !isHostName(raw)) {
      throw new AppError('INVALID_PARAMS', 'The badge path must be /badge/<host>.svg with a store host name such as shop.example.com.');
    }
    const entry = await deps.db.latestByHost(indexHost(raw));
    const badge = badgeFor(entry && { score: entry.score, grade: entry.grade, agentReady: agentReadyVerified(entry) });
    for (const [name, value] of Object.entries(BADGE_HEADERS)) res.setHeader(name, value);
    res.setHeader('ETag', badge.etag);
    if (matchesEtag(req.get('if-none-match'), badge.etag)) {
      res.status(304).end();
      return;
    }
    res.status(200).send(badge.svg);
  });

  router.all('/badge/:host.svg', methodNotAllowed(['GET']));
  // Anything else under /badge/ (no .svg, extra segments) is a JSON 404 rather than express's HTML default.
  router.all('/badge/{*rest}', () => {
    throw new AppError('NOT_FOUND', 'Badges live at /badge/<host>.svg, for example /badge/shop.example.com.svg.');
  });

  return router;
}

// GET /r/{scan_id}/card.png: the report's share card, the og:image of its page. A PNG, since most social networks
// and chat apps show no SVG preview: score, grade and host drawn as SVG and rasterised by resvg (docs/decisions.md
// "A PNG share card"). The numbers are the stored report's, so a card never changes and is cached for a day.
import type { RequestHandler } from 'express';
import { Resvg } from '@resvg/resvg-js';
import type { Repository } from '../db/repo.js';
import { PRODUCT_NAME } from './html.js';

export const CARD = { width: 1200, height: 630 };
const FONTS = 'DejaVu Sans, Liberation Sans, Arial, sans-serif';
const GRADE_FILL: Record<string, string> = { A: '#15803d', B: '#4d7c0f', C: '#a16207', D: '#c2410c', E: '#b91c1c' };

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The card as SVG: the host (store text, escaped and shortened), the score out of 100 and the grade. */
export function shareCardSvg(card: { host: string; score: number; grade: string }): string {
  const host = card.host.length > 40 ? `${card.host.slice(0, 39)}…` : card.host;
  const grade = /^[A-E]$/.test(card.grade) ? card.grade : '?';
  const score = Math.max(0, Math.min(100, Math.round(card.score)));
  const fill = GRADE_FILL[grade] ?? '#334155';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD.width}" height="${CARD.height}" viewBox="0 0 ${CARD.width} ${CARD.height}">
  <rect width="100%" height="100%" fill="#0f172a"/>
  <rect x="0" y="0" width="24" height="100%" fill="${fill}"/>
  <text x="80" y="120" font-family="${FONTS}" font-size="40" fill="#cbd5e1">AI-agent readiness</text>
  <text x="80" y="200" font-family="${FONTS}" font-size="60" font-weight="bold" fill="#ffffff">${xml(host)}</text>
  <text x="80" y="430" font-family="${FONTS}" font-size="200" font-weight="bold" fill="#ffffff">${score}<tspan font-size="80" fill="#94a3b8">/100</tspan></text>
  <rect x="860" y="250" width="240" height="240" rx="40" fill="${fill}"/>
  <text x="980" y="430" text-anchor="middle" font-family="${FONTS}" font-size="190" font-weight="bold" fill="#ffffff">${grade}</text>
  <text x="80" y="560" font-family="${FONTS}" font-size="32" fill="#94a3b8">Grade ${grade} · ${xml(PRODUCT_NAME)}</text>
</svg>`;
}

// A card takes about 140 ms to draw on a busy machine (the fonts are loaded each time), and a report's card never
// changes: the last cards drawn are kept, like the badges, and a day of HTTP caching does the rest.
const CARDS_KEPT = 200;
const drawn = new Map<string, Buffer>();

/** The card as PNG bytes, with the machine's fonts. */
export function shareCardPng(card: { host: string; score: number; grade: string }): Buffer {
  const key = `${card.host}\n${card.score}\n${card.grade}`;
  const kept = drawn.get(key);
  if (kept) return kept;
  const png = new Resvg(shareCardSvg(card), { font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' } }).render().asPng();
  if (drawn.size >= CARDS_KEPT) drawn.delete(drawn.keys().next().value as string);
  drawn.set(key, png);
  return png;
}

/** The route: integer ids only; an unknown or delisted report is the ordinary 404 page's status, with no body to draw. */
export function shareCardRoute(deps: { db: Repository }): RequestHandler {
  return async (req, res) => {
    const raw = String(req.params.scan_id ?? '');
    const id = /^[1-9][0-9]{0,15}$/.test(raw) ? Number(raw) : NaN;
    const scan = Number.isSafeInteger(id) ? await deps.db.getScan(id) : null;
    if (!scan || (await deps.db.isDelisted(scan.host))) return void res.status(404).type('text/plain').send('No such report.\n');
    const png = shareCardPng({ host: scan.host, score: scan.score, grade: scan.grade });
    res.setHeader('Content-Type', 'image/png');
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.send(png);
  };
}

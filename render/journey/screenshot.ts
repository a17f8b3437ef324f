// The small picture of where the journey ended: the visible part of the tab at half size, as a JPEG of at most
// 40 KiB (a lower quality first, then none), so the report stays small whatever the page paints.
import type { Page } from 'playwright-core';
import { withTimeout } from '../with-timeout.js';

export const JOURNEY_SHOT_MAX_BYTES = 40 * 1024;
const QUALITIES = [45, 25];

/** A `data:image/jpeg` URL of the viewport at half size, or null (too large at every quality, or no answer in time). */
export async function journeyShot(page: Page, timeoutMs: number): Promise<string | null> {
  const { width, height } = page.viewportSize() ?? { width: 1280, height: 800 };
  const session = await withTimeout(page.context().newCDPSession(page), timeoutMs).catch(() => null);
  if (!session) return null;
  try {
    // The clip is in page coordinates: the viewport's own offset, asked of the browser rather than of the page.
    const metrics = (await withTimeout(session.send('Page.getLayoutMetrics'), timeoutMs)) as { cssVisualViewport: { pageX: number; pageY: number } };
    const clip = { x: metrics.cssVisualViewport.pageX, y: metrics.cssVisualViewport.pageY, width, height, scale: 0.5 };
    for (const quality of QUALITIES) {
      const { data } = (await withTimeout(session.send('Page.captureScreenshot', { format: 'jpeg', quality, clip }), timeoutMs)) as { data: string };
      if (typeof data === 'string' && (data.length * 3) / 4 <= JOURNEY_SHOT_MAX_BYTES) return `data:image/jpeg;base64,${data}`;
    }
    return null;
  } catch {
    return null;
  } finally {
    await withTimeout(session.detach(), 1000).catch(() => {});
  }
}

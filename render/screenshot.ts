// The report's picture of a rendered page: a JPEG of the viewport, at most BROWSER_VIEW_CAPS.screenshotBytes. A page
// decides how well it compresses (random pixels do not), so a picture over the cap is taken again at a lower
// quality, then at half size, then left out, and the report says which.
import type { Page } from 'playwright-core';
import { BROWSER_VIEW_CAPS } from '../schemas/browser-view.js';
import { withTimeout } from './with-timeout.js';

/** Tried in order until one fits the cap. */
const ATTEMPTS = [
  { quality: 45, scale: 1, note: null },
  { quality: 20, scale: 1, note: 'at a lower quality' },
  { quality: 20, scale: 0.5, note: 'at half size and a lower quality' },
] as const;

export interface Screenshot {
  dataUrl: string | null;
  /** Why the picture is smaller than usual or missing, or null. */
  note: string | null;
}

/** The viewport as a JPEG data: URL within the byte cap; null, with a note, when no attempt fit or none was done in `ms`. */
export async function photograph(page: Page, ms: number, maxBytes: number = BROWSER_VIEW_CAPS.screenshotBytes): Promise<Screenshot> {
  const kib = `${Math.round(maxBytes / 1024)} KiB`;
  const taking = async (): Promise<Screenshot> => {
    const cdp = await page.context().newCDPSession(page);
    try {
      const { cssVisualViewport: view } = await cdp.send('Page.getLayoutMetrics');
      for (const { quality, scale, note } of ATTEMPTS) {
        const clip = { x: view.pageX, y: view.pageY, width: view.clientWidth, height: view.clientHeight, scale };
        const { data } = await cdp.send('Page.captureScreenshot', { format: 'jpeg', quality, clip });
        if (Buffer.byteLength(data, 'base64') <= maxBytes) {
          return { dataUrl: `data:image/jpeg;base64,${data}`, note: note && `The picture of this page was over ${kib} at the usual quality: it was taken ${note}.` };
        }
      }
      return { dataUrl: null, note: `The picture of this page was over ${kib} even at half size and a lower quality: it is left out.` };
    } finally {
      await cdp.detach().catch(() => {});
    }
  };
  return withTimeout(taking(), ms).catch(() => ({ dataUrl: null, note: 'The picture of this page could not be taken in time.' }));
}

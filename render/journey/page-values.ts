// The boundary between the page and the journey: every value a journey page script returns is parsed here before
// it is used or reported. A page can rewrite the built-ins our scripts call (String.prototype.slice, Array.from),
// so types, enums, lengths and counts are checked again on this side; a value that fails is no value.
import { z } from 'zod';

/** Text from the page, cut to `max` characters. */
const text = (max: number) => z.string().transform((s) => s.slice(0, max));
const count = z.int().min(0).max(1_000_000);

export const SearchField = z.object({ kind: text(60), visible: z.boolean() }).nullable();

export const Links = count;

export const NamedControls = z.array(z.object({ k: z.int().min(0).max(20), name: text(80), tag: text(20) })).max(20);

export const Choices = z.object({
  choices: z.array(z.object({ k: z.int().min(0).max(20), kind: z.enum(['select', 'radio', 'swatch']), label: text(60), option: text(60), value: text(200) })).max(10),
  unavailable: z.array(text(60)).max(10),
});

export const CartCount = z.int().min(0).max(999).nullable();

export const Layer = text(120).nullable();

export const Flag = z.boolean();

export const Landing = z.object({
  fields: z.array(text(30)).max(20),
  password: z.boolean(),
  frames: z.array(text(100)).max(20),
  captcha: z.enum(['reCAPTCHA', 'hCaptcha', 'Cloudflare Turnstile']).nullable(),
  human: z.boolean(),
  guest: z.boolean(),
  wall: z.boolean(),
});

export const AxeResults = z
  .array(
    z.object({
      id: text(60),
      impact: z.enum(['minor', 'moderate', 'serious', 'critical']).nullable().catch(null),
      help: text(200),
      nodes: z.array(z.object({ target: z.array(z.unknown()).max(20) })).max(10_000),
    }),
  )
  .max(200);

/** The parsed value, or `fallback` when the page handed back something else (or nothing in time). */
export async function fromPage<S extends z.ZodType>(schema: S, value: Promise<unknown>, fallback: z.output<S>): Promise<z.output<S>> {
  try {
    const parsed = schema.safeParse(await value);
    return parsed.success ? parsed.data : fallback;
  } catch {
    return fallback;
  }
}

export const Name = text(200).nullable();

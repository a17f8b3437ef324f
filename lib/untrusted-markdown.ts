// Store text in Markdown a model or a person reads (the agent brief, MCP answers, prompts): it only ever appears
// inside code spans, code fences or escaped link text, so it cannot add headings, links, HTML or instructions.

/** One line: control characters and line/paragraph separators become spaces, runs of space collapse, capped. */
export function oneLine(text: unknown, max = 200): string {
  const flat = String(text ?? '')
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** An inline code span that no backtick inside the text can close (CommonMark: a longer fence). */
export function inlineCode(text: unknown, max = 200): string {
  const flat = oneLine(text, max);
  if (flat === '') return '(empty)';
  const fence = '`'.repeat(longestRun(flat, '`') + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** A fenced block that no line of the body can close: the fence is longer than any backtick run inside. */
export function fenced(info: string, body: string): string {
  const clean = body.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
  const fence = '`'.repeat(Math.max(3, longestRun(clean, '`') + 1));
  return `${fence}${info}\n${clean}\n${fence}`;
}

/** Link text: every markdown-active character backslash-escaped, on one line. */
export function linkText(text: unknown, max = 100): string {
  return oneLine(text, max).replace(/[\\`*_{}[\]()<>#!|~&]/g, (c) => `\\${c}`);
}

/** An absolute http(s) URL without credentials, with the characters that could end a markdown link or code span
 * percent-encoded; null for anything else (javascript:, data:, relative, unparseable). */
export function safeHttpUrl(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length > 2048) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) return null;
  return url.href.replace(/[`()[\]<>'"{}|\\^ ]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

function longestRun(text: string, ch: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === ch ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

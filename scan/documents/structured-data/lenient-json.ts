// The lenient JSON parser for JSON-LD blocks: repairs what tolerant consumers repair, reports each repair, drops
// containers nested deeper than MAX_JSON_DEPTH. Iterative, so hostile nesting cannot overflow the stack.
import { MAX_JSON_DEPTH } from './limits.js';

export type LenientJson =
  | { ok: true; value: unknown; repairs: string[]; truncated: boolean }
  | { ok: false; error: string };

interface JsonFrame {
  container: Record<string, unknown> | unknown[];
  isObject: boolean;
  key: string | null;
}

/**
 * Parses a JSON-LD block the way tolerant consumers do: HTML comment and CDATA wrappers, JS comments, raw control
 * characters in strings, single quotes, trailing or missing commas and several concatenated values are repaired
 * (and reported in `repairs`). Containers nested deeper than 64 are dropped (`truncated`). Unterminated input fails.
 */
export function parseJsonLenient(input: string): LenientJson {
  return new LenientParser(input).run();
}

class LenientParser {
  private pos = 0;
  private readonly repairs = new Set<string>();
  private readonly stack: JsonFrame[] = [];
  private discardDepth = 0; // open containers beyond MAX_JSON_DEPTH, skipped without building
  private truncated = false;
  private readonly top: unknown[] = [];
  private pendingComma = false; // a comma was seen since the last value
  private needComma = false; // a value just ended, so a separator should come before the next one

  constructor(private readonly s: string) {}

  run(): LenientJson {
    try {
      this.parseAll();
    } catch (err) {
      return { ok: false, error: (err as Error).message };
    }
    if (this.stack.length > 0 || this.discardDepth > 0) return { ok: false, error: 'unterminated object or array' };
    if (this.top.length === 0) return { ok: false, error: 'no JSON value' };
    if (this.top.length > 1) this.repairs.add('concatenated values');
    const value = this.top.length === 1 ? this.top[0] : this.top;
    return { ok: true, value, repairs: [...this.repairs], truncated: this.truncated };
  }

  private fail(what: string): never {
    throw new Error(`${what} at offset ${this.pos}`);
  }

  private parseAll(): void {
    const s = this.s;
    for (;;) {
      this.skipTrivia();
      if (this.pos >= s.length) return;
      const ch = s[this.pos];
      const frame = this.stack[this.stack.length - 1];
      if (ch === ',') {
        if (this.pendingComma) this.repairs.add('extra comma');
        this.pendingComma = true;
        this.needComma = false;
        this.pos++;
        continue;
      }
      if (ch === '}' || ch === ']') {
        this.close(ch);
        continue;
      }
      if (ch === ':' && this.discardDepth > 0) {
        this.pos++; // keys inside a dropped container are read as plain strings
        continue;
      }
      if (this.discardDepth === 0 && frame?.isObject && frame.key === null) {
        this.readKey(frame);
        continue;
      }
      if (ch === ';' && this.stack.length === 0 && this.discardDepth === 0) {
        this.pos++; // "{…};" as pasted from a script
        this.repairs.add('semicolon');
        continue;
      }
      this.beforeValue();
      if (ch === '{' || ch === '[') this.open(ch === '{');
      else this.emit(this.readScalar());
    }
  }

  private beforeValue(): void {
    const frame = this.stack[this.stack.length - 1];
    if (this.needComma && this.discardDepth === 0 && frame && !frame.isObject) this.repairs.add('missing comma');
    this.pendingComma = false;
    this.needComma = false;
  }

  private open(isObject: boolean): void {
    this.pos++;
    this.needComma = false;
    if (this.discardDepth > 0 || this.stack.length >= MAX_JSON_DEPTH) {
      this.discardDepth++;
      this.truncated = true;
      return;
    }
    this.stack.push({ container: isObject ? {} : [], isObject, key: null });
  }

  private close(ch: string): void {
    this.pos++;
    if (this.pendingComma) this.repairs.add('trailing comma');
    this.pendingComma = false;
    if (this.discardDepth > 0) {
      this.discardDepth--;
      this.needComma = true;
      const parent = this.stack[this.stack.length - 1];
      if (this.discardDepth === 0 && parent?.isObject) parent.key = null; // the dropped value's key goes too
      return;
    }
    const frame = this.stack.pop();
    if (!frame) this.fail(`unexpected "${ch}"`);
    if (frame.isObject !== (ch === '}')) this.fail(`mismatched "${ch}"`);
    if (frame.isObject && frame.key !== null) this.fail(`missing value for "${frame.key.slice(0, 40)}"`);
    this.emit(frame.container, true);
  }

  private emit(value: unknown, fromClose = false): void {
    this.needComma = true;
    if (this.discardDepth > 0 && !fromClose) return;
    const frame = this.stack[this.stack.length - 1];
    if (!frame) {
      this.top.push(value);
      return;
    }
    if (!frame.isObject) {
      (frame.container as unknown[]).push(value);
      return;
    }
    const key = frame.key as string;
    frame.key = null;
    // Defined, not assigned: a "__proto__" key becomes an own property (as with JSON.parse), never the prototype.
    Object.defineProperty(frame.container, key, { value, enumerable: true, writable: true, configurable: true });
  }

  private readKey(frame: JsonFrame): void {
    if (this.needComma && !this.pendingComma) this.repairs.add('missing comma');
    this.pendingComma = false;
    this.needComma = false;
    const ch = this.s[this.pos];
    let key: string;
    if (ch === '"' || ch === "'") key = this.readString();
    else {
      const ident = this.readIdent();
      if (ident === '') this.fail(`unexpected "${ch}"`);
      this.repairs.add('unquoted key');
      key = ident;
    }
    this.skipTrivia();
    if (this.s[this.pos] !== ':') this.fail('expected ":"');
    this.pos++;
    frame.key = key;
  }

  private readScalar(): unknown {
    const s = this.s;
    const ch = s[this.pos];
    if (ch === '"' || ch === "'") return this.readString();
    if ((ch >= '0' && ch <= '9') || ch === '-' || ch === '+' || ch === '.') return this.readNumber();
    const ident = this.readIdent();
    switch (ident) {
      case 'true':
        return true;
      case 'false':
        return false;
      case 'null':
        return null;
      case 'undefined':
      case 'NaN':
      case 'Infinity':
        this.repairs.add('non-JSON literal');
        return null;
      default:
        return this.fail(`unexpected ${ident === '' ? `"${ch}"` : `"${ident.slice(0, 20)}"`}`);
    }
  }

  private readIdent(): string {
    const start = this.pos;
    const s = this.s;
    while (this.pos < s.length && /[A-Za-z0-9_$@-]/.test(s[this.pos])) this.pos++;
    return s.slice(start, this.pos);
  }

  private readNumber(): number {
    const s = this.s;
    const start = this.pos;
    if (s[this.pos] === '-' || s[this.pos] === '+') this.pos++;
    while (this.pos < s.length && /[0-9.eE+-]/.test(s[this.pos])) this.pos++;
    const text = s.slice(start, this.pos);
    const n = Number(text);
    if (!Number.isFinite(n)) this.fail(`bad number "${text.slice(0, 20)}"`);
    if (!/^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(text)) this.repairs.add('non-JSON number');
    return n;
  }

  private readString(): string {
    const s = this.s;
    const quote = s[this.pos];
    if (quote === "'") this.repairs.add('single quotes');
    this.pos++;
    let out = '';
    let chunkStart = this.pos;
    while (this.pos < s.length) {
      const c = s.charCodeAt(this.pos);
      if (c === 0x5c /* \ */) {
        out += s.slice(chunkStart, this.pos) + this.readEscape();
        chunkStart = this.pos;
        continue;
      }
      if (s[this.pos] === quote) {
        out += s.slice(chunkStart, this.pos);
        this.pos++;
        return out;
      }
      if (c < 0x20) this.repairs.add('control characters in string');
      this.pos++;
    }
    return this.fail('unterminated string');
  }

  private readEscape(): string {
    const s = this.s;
    const e = s[this.pos + 1];
    this.pos += 2;
    switch (e) {
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'u': {
        const hex = s.slice(this.pos, this.pos + 4);
        if (/^[0-9a-fA-F]{4}$/.test(hex)) {
          this.pos += 4;
          return String.fromCharCode(parseInt(hex, 16));
        }
        this.repairs.add('bad escape');
        return 'u';
      }
      case '"':
      case '\\':
      case '/':
        return e;
      case undefined:
        return this.fail('unterminated string');
      default:
        this.repairs.add('bad escape'); // \' and friends: keep the character, as JS would
        return e;
    }
  }

  /** Whitespace, JS comments and the HTML comment / CDATA wrappers sites put around JSON-LD. */
  private skipTrivia(): void {
    const s = this.s;
    while (this.pos < s.length) {
      const c = s.charCodeAt(this.pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0xfeff || c === 0xa0) {
        this.pos++;
      } else if (s.startsWith('//', this.pos)) {
        const end = s.indexOf('\n', this.pos);
        this.pos = end === -1 ? s.length : end + 1;
        this.repairs.add('comments');
      } else if (s.startsWith('/*', this.pos)) {
        const end = s.indexOf('*/', this.pos + 2);
        if (end === -1) this.fail('unterminated comment');
        this.pos = end + 2;
        this.repairs.add('comments');
      } else if (this.skipWrapper('<!--') || this.skipWrapper('-->') || this.skipWrapper('<![CDATA[') || this.skipWrapper(']]>')) {
        this.repairs.add('HTML comment or CDATA wrapper');
      } else {
        return;
      }
    }
  }

  private skipWrapper(token: string): boolean {
    if (!this.s.startsWith(token, this.pos)) return false;
    this.pos += token.length;
    return true;
  }
}

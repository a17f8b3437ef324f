// An independent Web Bot Auth verifier, written from the texts as a site would write its own: RFC 9421 (the
// signature base), draft-ietf-webbotauth-httpsig-protocol (the web-bot-auth tag, Signature-Agent as a Dictionary
// member covered with `;key=`) and the key directory draft (its media type and its `"@authority";req` response
// signatures). It shares no code with the signer: no http-message-sig, no web-bot-auth. Structured Fields are
// parsed with `structured-headers`, the base is built here, the JWK thumbprint (RFC 7638) is computed here and
// Ed25519 is checked by node:crypto.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { isInnerList, parseDictionary, serializeInnerList, serializeItem, type InnerList, type Item } from 'structured-headers';

export const DIRECTORY_PATH = '/.well-known/http-message-signatures-directory';
export const DIRECTORY_MEDIA_TYPE = 'application/http-message-signatures-directory+json';

export interface Jwk {
  kty: string;
  crv: string;
  x: string;
}

export class VerificationError extends Error {}

type Headers = Record<string, string | string[] | undefined> | Headers_;
type Headers_ = globalThis.Headers;

function header(h: Headers, name: string): string | null {
  if (typeof (h as Headers_).get === 'function') return (h as Headers_).get(name);
  const v = (h as Record<string, string | string[] | undefined>)[name];
  return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
}

/** RFC 7638 for an OKP key: the required members in lexicographic order, no whitespace, SHA-256, base64url. */
export function jwkThumbprint(jwk: Jwk): string {
  return createHash('sha256').update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x })).digest('base64url');
}

/** RFC 9421 §2.2.1: the host, lower case, with the port unless it is the scheme's default. */
export function authorityOf(url: string): string {
  const u = new URL(url);
  return u.host.toLowerCase();
}

function fail(why: string): never {
  throw new VerificationError(why);
}

interface Candidate {
  label: string;
  list: InnerList;
  params: Map<string, unknown>;
}

function candidates(h: Headers, tag: string): Candidate[] {
  const input = header(h, 'signature-input') ?? fail('no Signature-Input');
  let dict;
  try {
    dict = parseDictionary(input);
  } catch {
    fail('Signature-Input is not a Structured Field Dictionary');
  }
  const out: Candidate[] = [];
  for (const [label, member] of dict) {
    if (isInnerList(member) && member[1].get('tag') === tag) out.push({ label, list: member, params: member[1] });
  }
  return out;
}

function signatureBytes(h: Headers, label: string): Buffer {
  const member = parseDictionary(header(h, 'signature') ?? fail('no Signature')).get(label) ?? fail(`no signature labelled ${label}`);
  const value = isInnerList(member) ? null : member[0];
  if (!(value instanceof ArrayBuffer)) fail('the signature is not a Byte Sequence');
  return Buffer.from(value);
}

function checkTimes(params: Map<string, unknown>, now: number): void {
  const created = params.get('created');
  const expires = params.get('expires');
  if (typeof created !== 'number' || typeof expires !== 'number') fail('created and expires are required');
  const seconds = Math.floor(now / 1000);
  if (created > seconds + 5) fail('created in the future');
  if (expires <= seconds) fail('signature expired');
}

function keyFor(keys: Jwk[], keyid: unknown): Jwk {
  if (typeof keyid !== 'string') fail('no keyid');
  return keys.find((k) => jwkThumbprint(k) === keyid) ?? fail(`key ${keyid} is not in the directory`);
}

function check(base: string, signature: Buffer, jwk: Jwk): void {
  const key = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' });
  if (!verify(null, Buffer.from(base, 'utf8'), key, signature)) fail('signature does not verify');
}

const componentLine = (item: Item, value: string) => `${serializeItem(item)}: ${value}`;

/**
 * Verifies the web-bot-auth signature of a request to `url` (its absolute target URI) with `keys`. Returns the key
 * id and the Signature-Agent it names; throws VerificationError saying why otherwise.
 */
export function verifyRequest(url: string, headers: Headers, keys: Jwk[], now = Date.now()): { keyId: string; agent: string } {
  const [sig] = candidates(headers, 'web-bot-auth');
  if (!sig) fail('no web-bot-auth signature');
  checkTimes(sig.params, now);
  if (sig.params.has('alg') && sig.params.get('alg') !== 'ed25519') fail('not an Ed25519 signature');
  const agentDict = parseDictionary(header(headers, 'signature-agent') ?? fail('no Signature-Agent'));
  let agent: string | null = null;
  let authorityCovered = false;
  const lines: string[] = [];
  for (const item of sig.list[0]) {
    const [name, params] = item;
    if (name === '@authority' && params.size === 0) {
      authorityCovered = true;
      lines.push(componentLine(item, authorityOf(url)));
    } else if (name === 'signature-agent' && params.get('key') === sig.label) {
      const member = agentDict.get(sig.label) ?? fail('Signature-Agent has no member for the signature');
      if (isInnerList(member) || typeof member[0] !== 'string') fail('the Signature-Agent member is not a string');
      agent = member[0];
      lines.push(componentLine(item, serializeItem(member)));
    } else {
      fail(`unexpected component ${String(name)}`);
    }
  }
  if (!authorityCovered) fail('@authority is not covered');
  if (agent === null) fail('the Signature-Agent member is not covered');
  lines.push(`"@signature-params": ${serializeInnerList(sig.list)}`);
  const jwk = keyFor(keys, sig.params.get('keyid'));
  check(lines.join('\n'), signatureBytes(headers, sig.label), jwk);
  return { keyId: jwkThumbprint(jwk), agent };
}

/**
 * Fetches the key directory of a signature agent and verifies it as the draft asks: its media type, and a valid
 * `"@authority";req` signature by every key it lists. Returns the keys.
 */
export async function fetchDirectory(agent: string, now = Date.now()): Promise<Jwk[]> {
  const url = `${agent.replace(/\/+$/, '')}${DIRECTORY_PATH}`;
  const res = await fetch(url);
  if (res.status !== 200) fail(`directory answered ${res.status}`);
  if ((res.headers.get('content-type') ?? '').split(';')[0].trim() !== DIRECTORY_MEDIA_TYPE) fail('directory has the wrong media type');
  const body = (await res.json()) as { keys?: Jwk[] };
  const keys = Array.isArray(body.keys) ? body.keys : fail('directory has no keys');
  verifyDirectory(url, res.headers, keys, now);
  return keys;
}

/** Every key of a directory signed the answer, bound to the authority it was asked at. */
export function verifyDirectory(url: string, headers: Headers, keys: Jwk[], now = Date.now()): void {
  const signatures = candidates(headers, 'http-message-signatures-directory');
  const signedBy = new Set<string>();
  for (const sig of signatures) {
    checkTimes(sig.params, now);
    const [item, ...rest] = sig.list[0];
    if (rest.length > 0 || item?.[0] !== '@authority' || item[1].get('req') !== true) fail('a directory signature must cover "@authority";req only');
    const jwk = keyFor(keys, sig.params.get('keyid'));
    const base = `${componentLine(item, authorityOf(url))}\n"@signature-params": ${serializeInnerList(sig.list)}`;
    check(base, signatureBytes(headers, sig.label), jwk);
    signedBy.add(jwkThumbprint(jwk));
  }
  for (const k of keys) if (!signedBy.has(jwkThumbprint(k))) fail(`key ${jwkThumbprint(k)} did not sign the directory`);
}

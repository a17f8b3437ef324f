// The scanner's Web Bot Auth keys: an Ed25519 key made on first start, kept in the store with its private half
// sealed by the secret box (SECRETS_KEY), rotated by the command line. Every instance reads the keys from the store
// (at most KEY_REFRESH_MS old), signs with the newest key whose time has come, and lists in the key directory every
// key a verifier may still meet. Timing, so that no verifier meets a key it cannot find:
//   - a rotation publishes the new key ACTIVATION_DELAY_MS before it signs (a cached directory has expired by then);
//   - the key it replaces stays listed RETIRED_KEY_LISTED_MS after it stopped signing (its last signature expired).
import { createPrivateKey, generateKeyPairSync, type JsonWebKey, type KeyObject } from 'node:crypto';
import { helpers, jwkToKeyID } from 'web-bot-auth';
import type { SigningKeyRecord, SigningKeyRepo } from '../db/signing-keys-repo.js';
import { requestSigner, SIGNATURE_TTL_MS, type RequestSigner } from '../outbound/request-signer.js';

/** How old an instance's copy of the keys may be. */
export const KEY_REFRESH_MS = 60_000;
/** Cache-Control max-age of the key directory. */
export const DIRECTORY_MAX_AGE_S = 300;
export const ACTIVATION_DELAY_MS = DIRECTORY_MAX_AGE_S * 1000 + KEY_REFRESH_MS;
export const RETIRED_KEY_LISTED_MS = SIGNATURE_TTL_MS + KEY_REFRESH_MS;

/** What seals the private keys: the secret box of monitoring/secrets.ts (one key for every secret at rest). */
export interface Sealer {
  seal(plain: string, boundTo: string): string;
  open(sealed: string, boundTo: string): string;
}

export interface PublicJwk {
  kty: string;
  crv: string;
  x: string;
}

/** A stored key, opened: what the directory lists and what signs. */
export interface OpenKey {
  record: SigningKeyRecord;
  publicJwk: PublicJwk;
  privateJwk: JsonWebKey; // for the directory's own signatures (web-bot-auth signs from a JWK)
  privateKey: KeyObject;
}

export interface Keyring {
  /** The signer of the moment, making the first key when the store has none. */
  signer(): Promise<RequestSigner>;
  /** The keys a verifier may meet now, oldest first: the directory lists them and each signs it. */
  listed(): Promise<OpenKey[]>;
  /** A new key, signing from now (`immediate`) or after ACTIVATION_DELAY_MS; the older one is retired then. */
  rotate(opts?: { immediate?: boolean }): Promise<SigningKeyRecord>;
}

export interface KeyringDeps {
  keys: SigningKeyRepo;
  box: Sealer;
  /** Where verifiers find the directory: BASE_URL. */
  signatureAgent: string;
  now?: () => Date;
  /** Told when a stored key cannot be opened (SECRETS_KEY changed): it is left out, and a new key made if none is left. */
  warn?: (obj: object, msg: string) => void;
}

const boundTo = (keyId: string) => `signing-key:${keyId}`;

export function createKeyring(deps: KeyringDeps): Keyring {
  const now = deps.now ?? (() => new Date());
  let cache: { at: number; keys: OpenKey[] } | null = null;
  let loading: Promise<OpenKey[]> | null = null;
  const signers = new Map<string, RequestSigner>();

  const read = async (): Promise<OpenKey[]> => {
    let opened = open(await deps.keys.list(), deps);
    if (opened.length === 0) {
      // First start (or every key unreadable): one key, signing at once. Racing instances make one between them.
      await addKey(deps, generationAfter(await deps.keys.list()), now(), now());
      opened = open(await deps.keys.list(), deps);
    }
    cache = { at: now().getTime(), keys: opened };
    return opened;
  };
  const keys = (): Promise<OpenKey[]> => {
    if (cache && now().getTime() - cache.at < KEY_REFRESH_MS) return Promise.resolve(cache.keys);
    return (loading ??= read().finally(() => (loading = null)));
  };

  return {
    async signer() {
      const key = active(await keys(), now());
      const known = signers.get(key.record.keyId);
      if (known) return known;
      const made = requestSigner({ keyId: key.record.keyId, privateKey: key.privateKey }, deps.signatureAgent);
      signers.set(key.record.keyId, made);
      return made;
    },
    async listed() {
      const t = now().getTime();
      return (await keys()).filter((k) => k.record.retiredAt === null || t < k.record.retiredAt.getTime() + RETIRED_KEY_LISTED_MS);
    },
    async rotate(opts = {}) {
      const stored = await deps.keys.list();
      const at = now();
      const record = await addKey(deps, generationAfter(stored), at, new Date(at.getTime() + (opts.immediate ? 0 : ACTIVATION_DELAY_MS)));
      if (!record) throw new Error('Another rotation made a key at the same moment: list the keys, and rotate again if you still need to.');
      await deps.keys.pruneRetired(new Date(at.getTime() - RETIRED_KEY_LISTED_MS));
      cache = null;
      return record;
    },
  };
}

const generationAfter = (keys: SigningKeyRecord[]): number => Math.max(0, ...keys.map((k) => k.generation)) + 1;

/** The key that signs at `at`: the newest whose notBefore has come (keys are oldest first). */
function active(keys: OpenKey[], at: Date): OpenKey {
  const due = keys.filter((k) => k.record.notBefore.getTime() <= at.getTime());
  return due.at(-1) ?? keys[0];
}

/** Makes and stores a key; null when another instance stored that generation first. */
async function addKey(deps: KeyringDeps, generation: number, createdAt: Date, notBefore: Date): Promise<SigningKeyRecord | null> {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const publicJwk = publicKey.export({ format: 'jwk' }) as PublicJwk;
  const keyId = await jwkToKeyID(publicJwk as JsonWebKey, helpers.WEBCRYPTO_SHA256, helpers.BASE64URL_DECODE);
  const record: SigningKeyRecord = {
    generation,
    keyId,
    publicJwk: JSON.stringify({ kty: publicJwk.kty, crv: publicJwk.crv, x: publicJwk.x }),
    sealedPrivateJwk: deps.box.seal(JSON.stringify(privateKey.export({ format: 'jwk' })), boundTo(keyId)),
    createdAt,
    notBefore,
    retiredAt: null,
  };
  return (await deps.keys.add(record)) ? record : null;
}

function open(records: SigningKeyRecord[], deps: KeyringDeps): OpenKey[] {
  return records.flatMap((record) => {
    try {
      const privateJwk = JSON.parse(deps.box.open(record.sealedPrivateJwk, boundTo(record.keyId))) as JsonWebKey;
      return [{ record, publicJwk: JSON.parse(record.publicJwk) as PublicJwk, privateJwk, privateKey: createPrivateKey({ key: privateJwk, format: 'jwk' }) }];
    } catch {
      deps.warn?.({ keyId: record.keyId, generation: record.generation }, 'a signing key could not be opened with SECRETS_KEY: it is neither used nor listed');
      return [];
    }
  });
}

// The key directory of the scanner (draft-meunier-http-message-signatures-directory, as the Web Bot Auth draft
// uses it): GET /.well-known/http-message-signatures-directory answers the listed keys as a JWK set, with the
// directory's media type, signed by every key it lists (`"@authority";req`, tag http-message-signatures-directory)
// so a verifier knows the keys belong to this site. The signatures are web-bot-auth's directoryResponseHeaders.
import { directoryResponseHeaders, HTTP_MESSAGE_SIGNATURES_DIRECTORY, MediaType } from 'web-bot-auth';
import { signerFromJWK } from 'web-bot-auth/crypto';
import { DIRECTORY_MAX_AGE_S, KEY_REFRESH_MS, type Keyring } from './keyring.js';

export const DIRECTORY_PATH = HTTP_MESSAGE_SIGNATURES_DIRECTORY;
export const DIRECTORY_MEDIA_TYPE: string = MediaType.HTTP_MESSAGE_SIGNATURES_DIRECTORY;
/** The directory's own signatures outlive any cached copy of it. */
const SIGNATURE_LIFETIME_MS = 2 * DIRECTORY_MAX_AGE_S * 1000;

export interface DirectoryAnswer {
  body: string;
  headers: Record<string, string>;
}

/** The directory answer, made at most once a KEY_REFRESH_MS per instance (the keys change no faster). */
export function directoryResponder(keyring: Keyring, baseUrl: string, now: () => Date = () => new Date()): () => Promise<DirectoryAnswer> {
  let made: { at: number; answer: Promise<DirectoryAnswer> } | null = null;
  return () => {
    const at = now().getTime();
    if (!made || at - made.at >= KEY_REFRESH_MS) {
      const answer = directoryAnswer(keyring, baseUrl, new Date(at));
      made = { at, answer };
      answer.catch(() => (made = null)); // a store failure is not kept
    }
    return made.answer;
  };
}

export async function directoryAnswer(keyring: Keyring, baseUrl: string, at: Date): Promise<DirectoryAnswer> {
  const keys = await keyring.listed();
  const body = JSON.stringify({ keys: keys.map((k) => ({ ...k.publicJwk, kid: k.record.keyId })) });
  const signers = await Promise.all(keys.map((k) => signerFromJWK(k.privateJwk)));
  const request = { method: 'GET', url: `${baseUrl.replace(/\/+$/, '')}${DIRECTORY_PATH}`, headers: {} };
  const signed = await directoryResponseHeaders({ request, response: { status: 200, headers: {} } }, signers, {
    created: at,
    expires: new Date(at.getTime() + SIGNATURE_LIFETIME_MS),
  });
  return {
    body,
    headers: {
      'content-type': DIRECTORY_MEDIA_TYPE,
      'cache-control': `public, max-age=${DIRECTORY_MAX_AGE_S}`,
      signature: signed.Signature,
      'signature-input': signed['Signature-Input'],
    },
  };
}

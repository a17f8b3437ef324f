// Web Bot Auth (IETF webbotauth, draft-ietf-webbotauth-httpsig-protocol): an HTTP Message Signature (RFC 9421) on
// each request the scanner sends, over the request's @authority and the Signature-Agent member that names the
// service whose key directory holds the key, so a site can tell our requests from anyone else's that copy our
// user-agent. The signature itself is made by the http-message-sig library (the RFC 9421 implementation the
// web-bot-auth package is built on, in the release that signs dictionary members); this file holds the profile:
// which components, which parameters, a fresh nonce, a short lifetime.
import { randomBytes, sign, type KeyObject } from 'node:crypto';
import { component, createSignatureSync } from 'http-message-sig';
import { HTTP_MESSAGE_SIGNATURE_TAG, NONCE_LENGTH_IN_BYTES, SIGNATURE_AGENT_HEADER } from 'web-bot-auth';

/** The label of our signature and of the Signature-Agent member it covers. */
export const SIGNATURE_LABEL = 'sig1';
/** How long a signature stays valid: longer than any request of a scan, short enough that a replay soon fails. */
export const SIGNATURE_TTL_MS = 5 * 60_000;

export interface SigningKey {
  keyId: string; // the JWK thumbprint of the public key
  privateKey: KeyObject; // Ed25519
}

/** Signs requests with one key; made by bot-auth/keyring.ts, used by the fetcher (outbound/fetch.ts). */
export interface RequestSigner {
  readonly keyId: string;
  /** Where verifiers find the key directory: the service's BASE_URL. */
  readonly signatureAgent: string;
  /** The Signature-Agent, Signature-Input and Signature headers of a request to `url`, signed at `now`. */
  headers(url: URL | string, now?: Date): Record<string, string>;
}

export function requestSigner(key: SigningKey, signatureAgent: string): RequestSigner {
  // A Dictionary member whose value is an sf-string (RFC 8941): the URL holds no quote or backslash, but escape anyway.
  const agentField = `${SIGNATURE_LABEL}="${signatureAgent.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  const signer = { algorithm: 'ed25519', sign: (data: Uint8Array) => new Uint8Array(sign(null, data, key.privateKey)) };
  const components = ['@authority', component(SIGNATURE_AGENT_HEADER, { key: SIGNATURE_LABEL })];
  return {
    keyId: key.keyId,
    signatureAgent,
    headers(url, now = new Date()) {
      const created = Math.floor(now.getTime() / 1000);
      const fields = createSignatureSync(
        { kind: 'request', method: 'GET', targetUri: String(url), fields: [{ name: SIGNATURE_AGENT_HEADER, value: agentField }] },
        {
          label: SIGNATURE_LABEL,
          components,
          parameters: {
            created,
            expires: created + SIGNATURE_TTL_MS / 1000,
            keyid: key.keyId,
            alg: 'ed25519',
            nonce: randomBytes(NONCE_LENGTH_IN_BYTES).toString('base64url'),
            tag: HTTP_MESSAGE_SIGNATURE_TAG,
          },
          signer,
        },
      );
      return { [SIGNATURE_AGENT_HEADER]: agentField, 'signature-input': fields.signatureInput, signature: fields.signature };
    },
  };
}

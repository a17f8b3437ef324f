// The scanner's request signatures (outbound/request-signer.ts) checked by an independent verifier written from
// the drafts (test/helpers/web-bot-auth-verifier.ts: structured-headers and node:crypto, none of the signer's code):
// a signature verifies; a tampered header, an expired signature and a key missing from the directory are refused.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { requestSigner, SIGNATURE_TTL_MS } from '../../outbound/request-signer.js';
import { jwkThumbprint, verifyRequest, VerificationError, type Jwk } from '../helpers/web-bot-auth-verifier.js';

function keyPair() {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const jwk = publicKey.export({ format: 'jwk' }) as Jwk;
  return { jwk, signer: requestSigner({ keyId: jwkThumbprint(jwk), privateKey }, 'https://scanner.example') };
}

const URL_ = 'https://shop.example/products/kettle?variant=2';
const refused = (why: RegExp) => (err: unknown) => err instanceof VerificationError && why.test(err.message);

describe('request signatures (Web Bot Auth)', () => {
  it('carry the draft\'s headers and verify with an independent verifier', () => {
    const { jwk, signer } = keyPair();
    const h = signer.headers(URL_);
    assert.equal(h['signature-agent'], 'sig1="https://scanner.example"');
    assert.match(h['signature-input'], /^sig1=\("@authority" "signature-agent";key="sig1"\);created=\d+;expires=\d+;keyid="[A-Za-z0-9_-]{43}";alg="ed25519";nonce="[A-Za-z0-9_-]{86}";tag="web-bot-auth"$/);
    assert.match(h.signature, /^sig1=:[A-Za-z0-9+/]+=*:$/);
    const created = Number(/created=(\d+)/.exec(h['signature-input'])![1]);
    assert.equal(Number(/expires=(\d+)/.exec(h['signature-input'])![1]) - created, SIGNATURE_TTL_MS / 1000);
    assert.deepEqual(verifyRequest(URL_, h, [jwk]), { keyId: jwkThumbprint(jwk), agent: 'https://scanner.example' });
    // The signature covers the authority, not the path: the same headers hold for another page of the same site.
    assert.doesNotThrow(() => verifyRequest('https://shop.example/', h, [jwk]));
    assert.notEqual(signer.headers(URL_)['signature-input'], h['signature-input'], 'a fresh nonce every time');
  });

  it('a tampered header is refused', () => {
    const { jwk, signer } = keyPair();
    const h = signer.headers(URL_);
    assert.throws(() => verifyRequest('https://other.example/', h, [jwk]), refused(/does not verify/), 'another authority');
    assert.throws(() => verifyRequest(URL_, { ...h, 'signature-agent': 'sig1="https://impostor.example"' }, [jwk]), refused(/does not verify/));
    const later = h['signature-input'].replace(/expires=(\d+)/, (_m, e: string) => `expires=${Number(e) + 3600}`);
    assert.throws(() => verifyRequest(URL_, { ...h, 'signature-input': later }, [jwk]), refused(/does not verify/), 'a longer life');
    const flipped = h.signature.replace(/:(.)/, (_m, c: string) => `:${c === 'A' ? 'B' : 'A'}`);
    assert.throws(() => verifyRequest(URL_, { ...h, signature: flipped }, [jwk]), refused(/does not verify/));
  });

  it('an expired signature is refused, and one from the future', () => {
    const { jwk, signer } = keyPair();
    const now = Date.now();
    const h = signer.headers(URL_, new Date(now));
    assert.doesNotThrow(() => verifyRequest(URL_, h, [jwk], now + SIGNATURE_TTL_MS - 2000));
    assert.throws(() => verifyRequest(URL_, h, [jwk], now + SIGNATURE_TTL_MS + 1000), refused(/expired/));
    assert.throws(() => verifyRequest(URL_, signer.headers(URL_, new Date(now + 60_000)), [jwk], now), refused(/future/));
  });

  it('a key missing from the directory is refused', () => {
    const { signer } = keyPair();
    const other = keyPair();
    assert.throws(() => verifyRequest(URL_, signer.headers(URL_), [other.jwk]), refused(/not in the directory/));
  });
});

// The scanner's Web Bot Auth signing keys (bot-auth/keyring.ts): one record a key, its private half sealed by the
// secret box before it gets here. A separate part of Repository (reached as `db.signingKeys`), implemented by both
// adapters (sqlite/signing-keys.ts, mongo/signing-keys.ts).

export interface SigningKeyRecord {
  /** 1 for the first key, one more at each rotation. Unique: two instances racing for one generation make one key. */
  generation: number;
  keyId: string; // the JWK thumbprint (RFC 7638) of the public key: the keyid of every signature it makes
  publicJwk: string; // the public key as JWK JSON, as the key directory publishes it
  sealedPrivateJwk: string; // the private key as JWK JSON, sealed by the secret box and bound to keyId
  createdAt: Date;
  notBefore: Date; // when it starts signing (a rotation publishes the new key before it is used)
  retiredAt: Date | null; // when a newer key took over; null while it is the newest
}

export interface SigningKeyRepo {
  /** Every stored key, oldest generation first. */
  list(): Promise<SigningKeyRecord[]>;
  /**
   * Adds a key and retires, at its notBefore, every older key not yet retired, in one step where the store allows.
   * False (and nothing written) when its generation is taken: another instance or command got there first.
   */
  add(key: SigningKeyRecord): Promise<boolean>;
  /** Removes the keys retired before `before` (their signatures have expired); returns how many. */
  pruneRetired(before: Date): Promise<number>;
}

import { openSealedText, sealText } from '../security/sealed-text.ts';

const SIGNING_KEYS = { salt: 'sesame/signing-keys', info: 'private-jwk aes-256-gcm v1' };

/** Encrypts a private JWK for storage, bound to its kid: `v1.<iv>.<ciphertext>.<tag>`, each part base64url. */
export function encryptPrivateJwk(jwk: object, kid: string, keyEncryptionSecret: string): string {
  return sealText(JSON.stringify(jwk), kid, keyEncryptionSecret, SIGNING_KEYS);
}

export function decryptPrivateJwk(stored: string, kid: string, keyEncryptionSecret: string): Record<string, unknown> {
  if (!/^v1\./.test(stored)) throw new Error(`signing key ${kid}: unknown encryption format`);
  const plaintext = openSealedText(stored, kid, keyEncryptionSecret, SIGNING_KEYS);
  if (plaintext === null) {
    throw new Error(`signing key ${kid} cannot be decrypted: OIDC_KEY_ENCRYPTION_SECRET differs from the one the key was stored with`);
  }
  return JSON.parse(plaintext) as Record<string, unknown>;
}

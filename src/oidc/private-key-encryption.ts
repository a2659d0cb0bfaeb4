import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

// "v1" names the scheme: AES-256-GCM, key from HKDF-SHA256 over OIDC_KEY_ENCRYPTION_SECRET, the kid as
// additional data (a ciphertext moved to another row fails to decrypt). A later scheme gets a new prefix.
const SCHEME = 'v1';
const HKDF_SALT = 'sesame/signing-keys';
const HKDF_INFO = 'private-jwk aes-256-gcm v1';

function encryptionKey(keyEncryptionSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', keyEncryptionSecret, HKDF_SALT, HKDF_INFO, 32));
}

/** Encrypts a private JWK for storage: `v1.<iv>.<ciphertext>.<tag>`, each part base64url. */
export function encryptPrivateJwk(jwk: object, kid: string, keyEncryptionSecret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', encryptionKey(keyEncryptionSecret), iv);
  cipher.setAAD(Buffer.from(kid, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(jwk), 'utf8'), cipher.final()]);
  return [SCHEME, iv, ciphertext, cipher.getAuthTag()].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

export function decryptPrivateJwk(stored: string, kid: string, keyEncryptionSecret: string): Record<string, unknown> {
  const [scheme, iv, ciphertext, tag] = stored.split('.');
  if (scheme !== SCHEME || !iv || !ciphertext || !tag) throw new Error(`signing key ${kid}: unknown encryption format`);
  const decipher = createDecipheriv('aes-256-gcm', encryptionKey(keyEncryptionSecret), Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(kid, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  try {
    const plaintext = Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]);
    return JSON.parse(plaintext.toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new Error(
      `signing key ${kid} cannot be decrypted: OIDC_KEY_ENCRYPTION_SECRET differs from the one the key was stored with`,
    );
  }
}

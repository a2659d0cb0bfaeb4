import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

// "v1" names the scheme: AES-256-GCM, key from HKDF-SHA256 over OIDC_KEY_ENCRYPTION_SECRET with a salt
// and info per purpose, and the row's id as additional data (a ciphertext moved to another row fails to
// decrypt). A later scheme gets a new prefix.
const SCHEME = 'v1';

/** What a sealed value is for; each purpose derives its own key from the one key-encryption secret. */
export interface SealPurpose {
  salt: string;
  info: string;
}

function encryptionKey(keyEncryptionSecret: string, purpose: SealPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', keyEncryptionSecret, purpose.salt, purpose.info, 32));
}

/** Encrypts text for storage: `v1.<iv>.<ciphertext>.<tag>`, each part base64url, bound to `boundTo` (the row's id). */
export function sealText(plaintext: string, boundTo: string, keyEncryptionSecret: string, purpose: SealPurpose): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', encryptionKey(keyEncryptionSecret, purpose), iv);
  cipher.setAAD(Buffer.from(boundTo, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [SCHEME, iv, ciphertext, cipher.getAuthTag()].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

/** The text `sealText` sealed; null when the format is unknown or the secret, purpose or row differ. */
export function openSealedText(stored: string, boundTo: string, keyEncryptionSecret: string, purpose: SealPurpose): string | null {
  const [scheme, iv, ciphertext, tag] = stored.split('.');
  if (scheme !== SCHEME || !iv || !ciphertext || !tag) return null;
  const decipher = createDecipheriv('aes-256-gcm', encryptionKey(keyEncryptionSecret, purpose), Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(boundTo, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  try {
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

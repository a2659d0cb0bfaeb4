import type { Executor, RepositoryFactory } from '../store.ts';
import type { SigningKeyRow } from '../schema.ts';

export interface SigningKey {
  kid: string;
  alg: 'RS256' | 'ES256';
  /** The public JWK as JSON text. */
  publicJwk: string;
  /** The private JWK, encrypted with OIDC_KEY_ENCRYPTION_SECRET (private-key-encryption.ts); never decrypted here. */
  privateJwkEncrypted: string;
  status: 'active' | 'retired';
  createdAt: number;
  /** Published from creation on; signs only from this time (publish first, sign later). */
  signsFrom: number;
  /** When a newer key took over (or takes over) the signing; null while none has been made. */
  retiredAt: number | null;
}

export interface SigningKeyRepository {
  /** Every stored key, newest first. */
  list(): Promise<SigningKey[]>;
  /** The keys no newer key has replaced yet. */
  listActive(): Promise<SigningKey[]>;
  insert(keys: SigningKey[]): Promise<void>;
  /** Marks every active key retired as of `retiredAt` (when its successor starts signing). */
  retireActive(retiredAt: number): Promise<void>;
}

function toSigningKey(row: SigningKeyRow): SigningKey {
  return {
    kid: row.kid,
    alg: row.alg,
    publicJwk: row.public_jwk,
    privateJwkEncrypted: row.private_jwk_encrypted,
    status: row.status,
    createdAt: row.created_at,
    signsFrom: row.signs_from,
    retiredAt: row.retired_at,
  };
}

function toRow(key: SigningKey): SigningKeyRow {
  return {
    kid: key.kid,
    alg: key.alg,
    public_jwk: key.publicJwk,
    private_jwk_encrypted: key.privateJwkEncrypted,
    status: key.status,
    created_at: key.createdAt,
    signs_from: key.signsFrom,
    retired_at: key.retiredAt,
  };
}

/** The owner of `signing_keys`. */
export const signingKeyRepository: RepositoryFactory<SigningKeyRepository> = () => (executor: Executor) => ({
  async list() {
    const rows = await executor.selectFrom('signing_keys').selectAll().orderBy('created_at', 'desc').orderBy('kid').execute();
    return rows.map(toSigningKey);
  },
  async listActive() {
    const rows = await executor.selectFrom('signing_keys').selectAll().where('status', '=', 'active').orderBy('created_at', 'desc').orderBy('kid').execute();
    return rows.map(toSigningKey);
  },
  async insert(keys) {
    if (keys.length === 0) return;
    await executor.insertInto('signing_keys').values(keys.map(toRow)).execute();
  },
  async retireActive(retiredAt) {
    await executor.updateTable('signing_keys').set({ status: 'retired', retired_at: retiredAt }).where('status', '=', 'active').execute();
  },
});

import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/domain/digests.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { useMigratedStore } from '../helpers/migrated-store.ts';

const MIGRATION = '20261128050000-sesame-records-out-of-oidc-payloads';
const NOW = Date.UTC(2026, 10, 28, 12);
const LATER = NOW + 3600_000;
const PERSON = '6f1c2a9e-0000-4000-8000-000000000002';
const OTHER = '6f1c2a9e-0000-4000-8000-000000000003';

/** A row of oidc_payloads as the code before MIGRATION wrote it. */
const payloadRow = (kind: string, id: string, payload: Record<string, unknown>, columns: { account_id?: string; client_id?: string; grant_id?: string }) => ({
  kind,
  id: sha256Hex(id),
  payload: JSON.stringify(payload),
  grant_id: columns.grant_id ?? null,
  uid: null,
  account_id: columns.account_id ?? null,
  client_id: columns.client_id ?? null,
  expires_at: LATER,
  consumed_at: null,
  last_used_at: null,
  client_name: null,
});

/** What oidc_payloads held before MIGRATION, as the code of that time wrote it. */
async function rowsBefore(db: Kysely<any>): Promise<void> {
  await db.insertInto('oidc_payloads').values([
    // Remembered consent as saveRememberedConsent wrote it, for two clients of one person and one of another.
    payloadRow('RememberedConsent', `${PERSON} cli_web`, { scopes: ['openid', 'profile'], clientId: 'cli_web' }, { account_id: PERSON, client_id: 'cli_web' }),
    payloadRow('RememberedConsent', `${PERSON} https://assistant.example/client.json`, { scopes: ['openid', 'sesame:read'], clientId: 'https://assistant.example/client.json' }, { account_id: PERSON, client_id: 'https://assistant.example/client.json' }),
    payloadRow('RememberedConsent', `${OTHER} cli_web`, { scopes: ['openid'], clientId: 'cli_web' }, { account_id: OTHER, client_id: 'cli_web' }),
    // From before the client column: the client only in the digest, found again through the person's grant.
    payloadRow('RememberedConsent', `${OTHER} cli_old`, { scopes: ['openid', 'email'] }, { account_id: OTHER }),
    payloadRow('Grant', 'grant-of-other', { accountId: OTHER, clientId: 'cli_old' }, { account_id: OTHER, client_id: 'cli_old' }),
    // From before the client column, of a client found nowhere any more.
    payloadRow('RememberedConsent', `${OTHER} cli_gone`, { scopes: ['openid'] }, { account_id: OTHER }),
    // Upstream sign-ins in flight.
    payloadRow('UpstreamSignIn', 'interaction-uid.state', { provider: 'campus', nonce: 'n', codeVerifier: 'v', purpose: { interaction: 'interaction-uid' } }, {}),
    payloadRow('UpstreamConsoleSignIn', sha256Hex('upstream-console:nonce'), { subjectId: PERSON, provider: 'campus' }, {}),
    payloadRow('AccessToken', 'access-token-value', { accountId: PERSON, clientId: 'cli_web', grantId: 'grant-of-person' }, { account_id: PERSON, client_id: 'cli_web', grant_id: 'grant-of-person' }),
  ]).execute();
}

describe.each(TEST_ENGINES)('Sesame\'s own records leaving oidc_payloads on %s', (engine) => {
  const suite = useMigratedStore(engine, { before: MIGRATION, prepare: rowsBefore });

  it('still remembers every consent given before the migration, for the same person and client', async () => {
    const consents = suite.store.repos.rememberedConsents;
    expect(await consents.scopes(PERSON, 'cli_web', NOW)).toEqual(['openid', 'profile']);
    expect(await consents.scopes(PERSON, 'https://assistant.example/client.json', NOW)).toEqual(['openid', 'sesame:read']);
    expect(await consents.scopes(OTHER, 'cli_web', NOW)).toEqual(['openid']);
    expect(await consents.scopes(OTHER, 'cli_old', NOW)).toEqual(['openid', 'email']);
    expect(await consents.scopes(PERSON, 'cli_old', NOW)).toEqual([]);
    expect(await consents.scopes(PERSON, 'cli_web', LATER)).toEqual([]);
    expect(await suite.db.selectFrom('remembered_consents').select('client_id').where('client_id', '=', 'cli_gone').execute()).toEqual([]);

    // And forgets them as before: a deleted client's for everyone, one person's for one client.
    await consents.forgetClient('cli_web');
    expect(await consents.scopes(OTHER, 'cli_web', NOW)).toEqual([]);
    await consents.forget(OTHER, 'cli_old');
    expect(await consents.scopes(OTHER, 'cli_old', NOW)).toEqual([]);
    expect(await consents.scopes(PERSON, 'https://assistant.example/client.json', NOW)).toEqual(['openid', 'sesame:read']);
  });

  it('leaves oidc_payloads with oidc-provider\'s artifacts only; the sign-ins in flight are dropped', async () => {
    const kinds = (await suite.db.selectFrom('oidc_payloads').select('kind').orderBy('kind').execute()).map((row) => row.kind);
    expect(kinds).toEqual(['AccessToken', 'Grant']);
    expect(await suite.db.selectFrom('upstream_sign_ins').selectAll().execute()).toEqual([]);
    expect(await suite.db.selectFrom('upstream_console_sign_ins').selectAll().execute()).toEqual([]);
    expect(await suite.store.repos.oidcPayloads.find('AccessToken', 'access-token-value', NOW)).toBeDefined();
  });
});

import { describe, expect, it } from 'vitest';
import type { OidcArtifact } from '../../src/storage/repositories/oidc-payload-repository.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { useMigratedStore } from '../helpers/migrated-store.ts';

const NOW = Date.UTC(2026, 10, 28, 12);
const HOUR = 3600_000;

const artifact = (kind: string, id: string, payload: Record<string, unknown>, fields: Partial<OidcArtifact> = {}): OidcArtifact => ({
  kind,
  id,
  payload: { jti: id, kind, ...payload },
  grantId: typeof payload.grantId === 'string' ? payload.grantId : null,
  uid: null,
  accountId: 'subject-1',
  expiresAt: NOW + HOUR,
  ...fields,
});

/** The two statements a token request's artifacts take: its read of code, grant and session, and its write at the end. */
describe.each(TEST_ENGINES)('a token request’s read and write of oidc_payloads on %s', (engine) => {
  const suite = useMigratedStore(engine);
  const payloads = () => suite.store.repos.oidcPayloads;
  const kindsOf = async (grantId: string) =>
    (await suite.db.selectFrom('oidc_payloads').select('kind').where('grant_id', '=', grantId).orderBy('kind').execute()).map((row) => row.kind);

  async function codeOfGrant(name: string) {
    const grantId = `grant-${name}`;
    await payloads().upsert(artifact('Grant', grantId, { accountId: 'subject-1', clientId: 'rp' }, { grantId }));
    await payloads().upsert(artifact('Session', `session-${name}`, { uid: `uid-${name}`, accountId: 'subject-1' }, { uid: `uid-${name}` }));
    const code = `code-${name}-0123456789`;
    await payloads().upsert(artifact('AuthorizationCode', code, { grantId, sessionUid: `uid-${name}`, clientId: 'rp' }));
    return { grantId, code };
  }

  it('reads the code with its grant (jti filled in) and its session (by uid) in one go, and only unexpired ones', async () => {
    const { grantId, code } = await codeOfGrant('read');
    const found = await payloads().findWithGrantAndSession('AuthorizationCode', code, NOW);
    expect(found.artifact).toEqual({ payload: { jti: code, kind: 'AuthorizationCode', grantId, sessionUid: 'uid-read', clientId: 'rp' }, consumedAt: null });
    expect(found.grant).toEqual({ payload: { jti: grantId, kind: 'Grant', accountId: 'subject-1', clientId: 'rp' }, consumedAt: null });
    expect(found.session).toEqual({ payload: { kind: 'Session', uid: 'uid-read', accountId: 'subject-1' }, consumedAt: null });

    expect(await payloads().findWithGrantAndSession('AuthorizationCode', 'no-such-code', NOW)).toEqual({ artifact: undefined, grant: undefined, session: undefined });
    expect(await payloads().findWithGrantAndSession('RefreshToken', code, NOW)).toEqual({ artifact: undefined, grant: undefined, session: undefined });
    // An hour and a second later everything has expired.
    expect((await payloads().findWithGrantAndSession('AuthorizationCode', code, NOW + HOUR + 1000)).artifact).toBeUndefined();
  });

  it('consumes the code and writes the tokens together; a second consume writes nothing', async () => {
    const { grantId, code } = await codeOfGrant('write');
    const tokens = [artifact('AccessToken', 'at-write', { grantId }), artifact('RefreshToken', 'rt-write', { grantId })];
    expect(await payloads().writeTogether({ consumed: { kind: 'AuthorizationCode', id: code }, deleted: [], written: tokens }, NOW)).toBe(true);
    expect((await payloads().find('AuthorizationCode', code, NOW))?.consumedAt).toBe(NOW);
    expect(await payloads().find('AccessToken', 'at-write', NOW)).toEqual({ payload: { jti: 'at-write', kind: 'AccessToken', grantId }, consumedAt: null });
    expect(await kindsOf(grantId)).toEqual(['AccessToken', 'AuthorizationCode', 'Grant', 'RefreshToken']);

    const again = [artifact('AccessToken', 'at-again', { grantId }), artifact('RefreshToken', 'rt-again', { grantId })];
    expect(await payloads().writeTogether({ consumed: { kind: 'AuthorizationCode', id: code }, deleted: [], written: again }, NOW + 1)).toBe(false);
    expect(await payloads().find('AccessToken', 'at-again', NOW)).toBeUndefined();
    expect(await payloads().find('RefreshToken', 'rt-again', NOW)).toBeUndefined();
    expect((await payloads().find('AuthorizationCode', code, NOW))?.consumedAt).toBe(NOW);
  });

  it('of concurrent consumers of one code exactly one writes its tokens', async () => {
    const { grantId, code } = await codeOfGrant('race');
    const results = await Promise.all(
      [0, 1, 2, 3].map((n) => payloads().writeTogether({ consumed: { kind: 'AuthorizationCode', id: code }, deleted: [], written: [artifact('AccessToken', `at-race-${n}`, { grantId })] }, NOW)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = results.indexOf(true);
    for (const n of [0, 1, 2, 3]) expect(await payloads().find('AccessToken', `at-race-${n}`, NOW)).toEqual(n === winner ? expect.anything() : undefined);
  });

  it('deletes and writes together (a sign-in’s return: the interaction and the old session go, the new session and the code come); a lost consume deletes nothing either', async () => {
    await payloads().upsert(artifact('Interaction', 'interaction-1', { uid: 'interaction-1' }));
    await payloads().upsert(artifact('Session', 'session-old', { uid: 'uid-kept' }, { uid: 'uid-kept' }));
    const written = [artifact('Session', 'session-new', { uid: 'uid-kept' }, { uid: 'uid-kept' }), artifact('AuthorizationCode', 'code-after-sign-in', { grantId: 'grant-s' })];
    const deleted = [{ kind: 'Interaction', id: 'interaction-1' }, { kind: 'Session', id: 'session-old' }];
    expect(await payloads().writeTogether({ consumed: undefined, deleted, written }, NOW)).toBe(true);
    expect(await payloads().find('Interaction', 'interaction-1', NOW)).toBeUndefined();
    expect(await payloads().find('Session', 'session-old', NOW)).toBeUndefined();
    expect((await payloads().findByUid('Session', 'uid-kept', NOW))?.payload).toEqual({ kind: 'Session', uid: 'uid-kept' });
    expect(await payloads().find('AuthorizationCode', 'code-after-sign-in', NOW)).toBeDefined();

    await payloads().upsert(artifact('Interaction', 'interaction-2', {}));
    const lost = { consumed: { kind: 'RefreshToken', id: 'never-issued' }, deleted: [{ kind: 'Interaction', id: 'interaction-2' }], written: [artifact('AccessToken', 'at-lost', {})] };
    expect(await payloads().writeTogether(lost, NOW)).toBe(false);
    expect(await payloads().find('Interaction', 'interaction-2', NOW)).toBeDefined();
    expect(await payloads().find('AccessToken', 'at-lost', NOW)).toBeUndefined();
  });

  it('writes without a consume, and a consume of a code that is gone fails', async () => {
    await payloads().upsert(artifact('AccessToken', 'at-replaced', { scope: 'openid' }));
    await payloads().consume('AccessToken', 'at-replaced', NOW);
    expect(await payloads().writeTogether({ consumed: undefined, deleted: [], written: [artifact('AccessToken', 'at-replaced', { scope: 'openid profile' })] }, NOW)).toBe(true);
    // A replaced artifact is no longer consumed, as upsert leaves it.
    expect(await payloads().find('AccessToken', 'at-replaced', NOW)).toEqual({ payload: { jti: 'at-replaced', kind: 'AccessToken', scope: 'openid profile' }, consumedAt: null });
    expect(await payloads().writeTogether({ consumed: { kind: 'RefreshToken', id: 'never-issued' }, deleted: [], written: [artifact('AccessToken', 'at-orphan', {})] }, NOW)).toBe(false);
    expect(await payloads().find('AccessToken', 'at-orphan', NOW)).toBeUndefined();
  });
});

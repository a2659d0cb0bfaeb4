import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import * as oidc from 'openid-client';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/domain/digests.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, oauthError, redeemCode } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { OidcUserAgent, signInThroughPages } from '../helpers/oidc-user-agent.ts';

/**
 * A code exchange or refresh writes its consume and its new tokens at the request's end, in one statement
 * (one transaction on SQLite). A code or refresh token used twice, one after the other or at the same time,
 * must still end its grant: whichever request finds it consumed, at its read or at its write, answers
 * invalid_grant, and the tokens the other one issued stop working.
 */
describe.each(TEST_ENGINES)('reused codes and refresh tokens end their grant on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  let statements: string[] = [];
  beforeAll(async () => {
    server = await startOidcTestServer(engine, {}, { onStatement: (sql) => statements.push(sql) });
    fixture = await setUpOidcFixture(server);
  });
  afterAll(() => server.close());

  async function signedInCode() {
    const config = await discoverAs(server.issuer, fixture.web);
    const request = await authorizationRequest(config, fixture.web, 'openid profile offline_access', { prompt: 'consent' });
    const callback = await signInThroughPages(new OidcUserAgent(server.issuer), request.url, PERSON);
    const code = new URL(callback.location!).searchParams.get('code')!;
    const row = await server.db.selectFrom('oidc_payloads').select('grant_id').where('kind', '=', 'AuthorizationCode').where('id', '=', sha256Hex(code)).executeTakeFirstOrThrow();
    return { config, request, callbackUrl: callback.location!, code, grantId: row.grant_id! };
  }

  const rowsOfGrant = async (grantId: string) =>
    (await server.db.selectFrom('oidc_payloads').select('kind').where('grant_id', '=', grantId).execute()).map((row) => row.kind);

  /** What `/metrics` counts as code exchanges that issued tokens (the per-client token limit counts the same). */
  const issuedCodeExchanges = async () =>
    Number(/^sesame_tokens_issued_total\{grant_type="authorization_code"\} (\d+)$/m.exec(await (await fetch(`${server.issuer}/metrics`)).text())?.[1] ?? 0);

  async function expectGrantEnded(config: oidc.Configuration, grantId: string, tokens: { access_token: string; refresh_token?: string | undefined }) {
    expect(await rowsOfGrant(grantId)).toEqual([]);
    await expect(oidc.fetchUserInfo(config, tokens.access_token, fixture.person.subjectId)).rejects.toThrow();
    expect(await oauthError(oidc.refreshTokenGrant(config, tokens.refresh_token!))).toBe('invalid_grant');
  }

  it('a code redeemed again ends the grant: the first redemption’s access and refresh tokens stop working', async () => {
    const { config, request, callbackUrl, grantId } = await signedInCode();
    const tokens = await redeemCode(config, request, callbackUrl);
    expect(tokens.refresh_token).toEqual(expect.any(String));
    expect(await rowsOfGrant(grantId)).toEqual(expect.arrayContaining(['Grant', 'AuthorizationCode', 'AccessToken', 'RefreshToken']));

    expect(await oauthError(redeemCode(config, request, callbackUrl))).toBe('invalid_grant');
    await expectGrantEnded(config, grantId, tokens);
  });

  it('of two concurrent redemptions of one code exactly one wins, and the grant ends', async () => {
    const { config, request, callbackUrl, grantId } = await signedInCode();
    const issuedBefore = await issuedCodeExchanges();
    const outcomes = await Promise.all([0, 1].map(() => redeemCode(config, request, callbackUrl).then((tokens) => ({ tokens }), (error: unknown) => ({ error }))));
    const winners = outcomes.flatMap((outcome) => ('tokens' in outcome ? [outcome.tokens] : []));
    const losers = outcomes.flatMap((outcome) => ('error' in outcome ? [outcome.error] : []));
    expect(winners).toHaveLength(1);
    expect(await oauthError(Promise.reject(losers[0]))).toBe('invalid_grant');
    expect(await issuedCodeExchanges()).toBe(issuedBefore + 1);
    await expectGrantEnded(config, grantId, winners[0]!);
  });

  it('a refresh token used again ends the grant, the token that replaced it with it', async () => {
    const { config, request, callbackUrl, grantId } = await signedInCode();
    const tokens = await redeemCode(config, request, callbackUrl);
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);

    expect(await oauthError(oidc.refreshTokenGrant(config, tokens.refresh_token!))).toBe('invalid_grant');
    await expectGrantEnded(config, grantId, refreshed);
  });

  /**
   * Another connection consumes the code and holds its change uncommitted while the redemption runs: the
   * redemption reads the code unconsumed, then its write waits for that connection and finds the code
   * consumed. It must write no tokens, end the grant and answer invalid_grant.
   */
  it('a code consumed while its redemption is in flight: the write finds it consumed, writes no tokens, counts none issued and ends the grant', async () => {
    const { config, request, callbackUrl, code, grantId } = await signedInCode();
    const holder = await holdCodeConsumed(code);
    const issuedBefore = await issuedCodeExchanges();
    statements = [];
    const redemption = oauthError(redeemCode(config, request, callbackUrl));
    // Once the code is read (its statement is heard when done) the redemption is at, or waiting for, its write:
    // nothing else it does waits for the database long (the client and the account may come from memory).
    for (let waited = 0; !statements.some((sql) => sql.startsWith('with artifact as')) && waited < 3000; waited += 10) await sleep(10);
    await sleep(150);
    await holder.commit();
    expect(await redemption).toBe('invalid_grant');
    // Its write ran, and found the code consumed (oidc-provider's own check at the read saw it unconsumed).
    expect(statements.some((sql) => /^with consumed as \(update|^update "oidc_payloads" set "consumed_at"/.test(sql))).toBe(true);
    expect(await rowsOfGrant(grantId)).toEqual([]);
    // Nothing was issued, so nothing counts against the client's token allowance.
    expect(await issuedCodeExchanges()).toBe(issuedBefore);
  });

  async function holdCodeConsumed(code: string): Promise<{ commit(): Promise<void> }> {
    const consume = `update oidc_payloads set consumed_at = 1 where kind = 'AuthorizationCode' and id = '${sha256Hex(code)}'`;
    if (engine === 'postgres') {
      const client = new pg.Client({ connectionString: server.config.databaseUrl });
      await client.connect();
      await client.query('begin');
      await client.query(consume);
      return {
        async commit() {
          await client.query('commit');
          await client.end();
        },
      };
    }
    const database = new DatabaseSync(server.config.databaseUrl.slice('sqlite:'.length));
    database.exec('begin immediate');
    database.exec(consume);
    return {
      async commit() {
        database.exec('commit');
        database.close();
      },
    };
  }
});

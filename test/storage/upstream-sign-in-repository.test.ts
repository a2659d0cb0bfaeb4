import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/domain/digests.ts';
import type { UpstreamSignInChecks } from '../../src/domain/identity-providers.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { useMigratedStore } from '../helpers/migrated-store.ts';

const NOW = Date.UTC(2026, 10, 28, 12);
const MINUTE = 60_000;

const forInteraction: UpstreamSignInChecks = { provider: 'campus', nonce: 'nonce-1', codeVerifier: 'verifier-1', purpose: { interaction: 'interaction-uid-1' } };
const forConsole: UpstreamSignInChecks = { provider: 'campus', nonce: 'nonce-2', codeVerifier: 'verifier-2', purpose: { console: { browser: sha256Hex('browser-nonce'), next: '/projects' } } };

describe.each(TEST_ENGINES)('upstream sign-in repository on %s', (engine) => {
  const suite = useMigratedStore(engine);
  const signIns = () => suite.store.repos.upstreamSignIns;

  it('keeps a sign-in sent upstream under its state digest, for an interaction or a console, until used once or expired', async () => {
    await signIns().insertPending(sha256Hex('state-1'), forInteraction, NOW + 10 * MINUTE, NOW);
    await signIns().insertPending(sha256Hex('state-2'), forConsole, NOW + 10 * MINUTE, NOW);
    expect(await signIns().findPending(sha256Hex('state-1'), NOW)).toEqual(forInteraction);
    expect(await signIns().findPending(sha256Hex('state-2'), NOW)).toEqual(forConsole);
    expect(await signIns().findPending(sha256Hex('state-1'), NOW + 10 * MINUTE)).toBeUndefined();
    expect(await signIns().usePending(sha256Hex('state-1'), NOW + 10 * MINUTE)).toBe(false);

    const uses = await Promise.all(Array.from({ length: 6 }, () => signIns().usePending(sha256Hex('state-1'), NOW)));
    expect(uses.filter(Boolean)).toHaveLength(1);
    expect(await signIns().findPending(sha256Hex('state-1'), NOW)).toBeUndefined();
    expect(await signIns().findPending(sha256Hex('state-2'), NOW)).toEqual(forConsole);
  });

  it('stores no state, and drops expired sign-ins when another starts', async () => {
    await signIns().insertPending(sha256Hex('state-old'), forInteraction, NOW - 1, NOW - 10 * MINUTE);
    await signIns().insertPending(sha256Hex('state-new'), forInteraction, NOW + 10 * MINUTE, NOW);
    const rows = await suite.db.selectFrom('upstream_sign_ins').selectAll().execute();
    expect(rows.map((row) => row.state_digest)).not.toContain(sha256Hex('state-old'));
    expect(rows.map((row) => row.state_digest)).toContain(sha256Hex('state-new'));
    expect(JSON.stringify(rows)).not.toMatch(/state-(old|new|1|2)/);
  });

  it('holds a confirmed console sign-in for its browser until used once or expired, a later one replacing it', async () => {
    const browser = sha256Hex('browser-a');
    expect(await signIns().findConsoleSignIn(browser, NOW)).toBeUndefined();
    await signIns().holdConsoleSignIn(browser, { subjectId: 'subject-1', provider: 'campus' }, NOW + 5 * MINUTE, NOW);
    await signIns().holdConsoleSignIn(browser, { subjectId: 'subject-2', provider: 'campus' }, NOW + 5 * MINUTE, NOW);
    expect(await signIns().findConsoleSignIn(browser, NOW)).toEqual({ subjectId: 'subject-2', provider: 'campus' });
    expect(await signIns().findConsoleSignIn(sha256Hex('browser-b'), NOW)).toBeUndefined();
    expect(await signIns().findConsoleSignIn(browser, NOW + 5 * MINUTE)).toBeUndefined();
    expect(await signIns().useConsoleSignIn(browser, NOW + 5 * MINUTE)).toBe(false);

    const uses = await Promise.all(Array.from({ length: 6 }, () => signIns().useConsoleSignIn(browser, NOW)));
    expect(uses.filter(Boolean)).toHaveLength(1);
    expect(await signIns().findConsoleSignIn(browser, NOW)).toBeUndefined();
  });

  it('drops expired console sign-ins when another is held', async () => {
    await signIns().holdConsoleSignIn(sha256Hex('browser-old'), { subjectId: 'subject-1', provider: 'campus' }, NOW - 1, NOW - 5 * MINUTE);
    await signIns().holdConsoleSignIn(sha256Hex('browser-new'), { subjectId: 'subject-1', provider: 'campus' }, NOW + 5 * MINUTE, NOW);
    const keys = (await suite.db.selectFrom('upstream_console_sign_ins').select('browser_digest').execute()).map((row) => row.browser_digest);
    expect(keys).not.toContain(sha256Hex('browser-old'));
    expect(keys).toContain(sha256Hex('browser-new'));
  });
});

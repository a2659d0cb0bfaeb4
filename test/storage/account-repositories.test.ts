import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { useMigratedStore } from '../helpers/migrated-store.ts';

// The repositories added with My account, mail links, idempotency keys and the second-factor policy.
describe.each(TEST_ENGINES)('account repositories on %s', (engine) => {
  const suite = useMigratedStore(engine);

  async function aPerson(): Promise<string> {
    const subjectId = randomUUID();
    await suite.store.repos.users.insert(
      { subjectId, account: `person-${subjectId.slice(0, 8)}`, displayName: 'P', email: null, emailVerified: false, studentStatus: 'unknown', isAdmin: false, status: 'active', createdAt: 1, updatedAt: 1 },
      'hash',
    );
    return subjectId;
  }

  describe('account links', () => {
    function aLink(subjectId: string, purpose: 'invitation' | 'password_reset' = 'password_reset') {
      return { linkId: randomUUID(), purpose, subjectId, email: 'p@example.test', passwordState: 'state', createdAt: 1_000, expiresAt: 2_000 };
    }

    it('finds a link by its token digest only once it was minted', async () => {
      const link = aLink(await aPerson());
      await suite.store.repos.accountLinks.insert(link);
      expect(await suite.store.repos.accountLinks.findById(link.linkId)).toMatchObject({ ...link, usedAt: null, revokedAt: null, minted: false });
      const digest = `digest-${link.linkId}`;
      expect(await suite.store.repos.accountLinks.findByTokenDigest(digest)).toBeUndefined();
      expect(await suite.store.repos.accountLinks.setTokenDigest(link.linkId, digest)).toBe(true);
      expect(await suite.store.repos.accountLinks.findByTokenDigest(digest)).toMatchObject({ linkId: link.linkId, minted: true });
    });

    it('lets exactly one of two racing uses win, and a used link takes no new token', async () => {
      const link = aLink(await aPerson());
      await suite.store.repos.accountLinks.insert(link);
      const uses = await Promise.all([1, 2].map(() => suite.store.transaction((repos) => repos.accountLinks.markUsed(link.linkId, 1_500))));
      expect(uses.filter(Boolean)).toHaveLength(1);
      expect(await suite.store.repos.accountLinks.setTokenDigest(link.linkId, 'after-use')).toBe(false);
      expect((await suite.store.repos.accountLinks.findById(link.linkId))?.usedAt).toBe(1_500);
    });

    it('revokes only the live links of one purpose of one person', async () => {
      const subjectId = await aPerson();
      const other = await aPerson();
      const [live, used, invitation, othersLink] = [aLink(subjectId), aLink(subjectId), aLink(subjectId, 'invitation'), aLink(other)];
      for (const link of [live, used, invitation, othersLink]) await suite.store.repos.accountLinks.insert(link);
      await suite.store.repos.accountLinks.markUsed(used.linkId, 1_100);
      expect(await suite.store.repos.accountLinks.revokeLive(subjectId, 'password_reset', 1_200)).toBe(1);
      expect((await suite.store.repos.accountLinks.findById(live.linkId))?.revokedAt).toBe(1_200);
      expect((await suite.store.repos.accountLinks.findById(used.linkId))?.revokedAt).toBeNull();
      expect((await suite.store.repos.accountLinks.findById(invitation.linkId))?.revokedAt).toBeNull();
      expect((await suite.store.repos.accountLinks.findById(othersLink.linkId))?.revokedAt).toBeNull();
      expect(await suite.store.repos.accountLinks.markUsed(live.linkId, 1_300)).toBe(false);
    });

    it('finds the newest live link of a purpose (a pending address) and counts the links made since a time', async () => {
      const subjectId = await aPerson();
      const at = (createdAt: number, email: string, purpose: 'invitation' | 'password_reset' = 'password_reset') => ({ ...aLink(subjectId, purpose), createdAt, expiresAt: createdAt + 1_000, email });
      const [older, newer, newestUsed, invitation] = [at(1_000, 'older@example.test'), at(1_100, 'newer@example.test'), at(1_200, 'used@example.test'), at(1_300, 'invited@example.test', 'invitation')];
      for (const link of [older, newer, newestUsed, invitation]) await suite.store.repos.accountLinks.insert(link);
      await suite.store.repos.accountLinks.markUsed(newestUsed.linkId, 1_250);
      expect((await suite.store.repos.accountLinks.findNewestLive(subjectId, 'password_reset', 1_500))?.email).toBe('newer@example.test');
      // Expired at 2_100 (1_100 + 1_000): nothing live is left.
      expect(await suite.store.repos.accountLinks.findNewestLive(subjectId, 'password_reset', 2_100)).toBeUndefined();
      expect(await suite.store.repos.accountLinks.findNewestLive(await aPerson(), 'password_reset', 1_500)).toBeUndefined();
      // Made since: used, revoked or expired alike; one purpose only.
      expect(await suite.store.repos.accountLinks.countMadeSince(subjectId, 'password_reset', 1_000)).toBe(3);
      expect(await suite.store.repos.accountLinks.countMadeSince(subjectId, 'password_reset', 1_100)).toBe(2);
      expect(await suite.store.repos.accountLinks.countMadeSince(subjectId, 'invitation', 0)).toBe(1);
    });
  });

  describe('account factors', () => {
    function aTotp(subjectId: string) {
      return { factorId: randomUUID(), subjectId, type: 'totp' as const, name: 'Phone', status: 'pending' as const, secretEncrypted: 'sealed', lastUsedStep: null, createdAt: 1_000, lastUsedAt: null };
    }

    it('counts only a confirmed factor, and only for its own person', async () => {
      const subjectId = await aPerson();
      const factor = aTotp(subjectId);
      await suite.store.repos.accountFactors.insert(factor);
      expect(await suite.store.repos.accountFactors.hasActiveFactor(subjectId)).toBe(false);
      expect(await suite.store.repos.accountFactors.activate(factor.factorId)).toBe(true);
      expect(await suite.store.repos.accountFactors.hasActiveFactor(subjectId)).toBe(true);
      expect(await suite.store.repos.accountFactors.find(await aPerson(), factor.factorId)).toBeUndefined();
      expect(await suite.store.repos.accountFactors.listOf(subjectId)).toEqual([expect.objectContaining({ factorId: factor.factorId, status: 'active' })]);
    });

    it('accepts a code step once, and never one older than the last used', async () => {
      const factor = aTotp(await aPerson());
      await suite.store.repos.accountFactors.insert(factor);
      await suite.store.repos.accountFactors.activate(factor.factorId);
      const racing = await Promise.all([1, 2, 3].map(() => suite.store.transaction((repos) => repos.accountFactors.recordUse(factor.factorId, 100, 5_000))));
      expect(racing.filter(Boolean)).toHaveLength(1);
      expect(await suite.store.repos.accountFactors.recordUse(factor.factorId, 99, 5_001)).toBe(false);
      expect(await suite.store.repos.accountFactors.recordUse(factor.factorId, 101, 5_002)).toBe(true);
      expect(await suite.store.repos.accountFactors.find(factor.subjectId, factor.factorId)).toMatchObject({ lastUsedStep: 101, lastUsedAt: 5_002 });
    });

    it('uses each recovery code once and forgets the old set when replaced', async () => {
      const subjectId = await aPerson();
      await suite.store.repos.accountFactors.replaceRecoveryCodes(subjectId, ['a', 'b', 'c'], 1_000);
      expect(await suite.store.repos.accountFactors.useRecoveryCode(subjectId, 'b', 2_000)).toBe(true);
      expect(await suite.store.repos.accountFactors.useRecoveryCode(subjectId, 'b', 2_001)).toBe(false);
      expect(await suite.store.repos.accountFactors.useRecoveryCode(await aPerson(), 'a', 2_002)).toBe(false);
      expect(await suite.store.repos.accountFactors.recoveryCodesOf(subjectId)).toEqual({ createdAt: 1_000, lastUsedAt: 2_000, unused: 2 });
      await suite.store.repos.accountFactors.replaceRecoveryCodes(subjectId, ['d'], 3_000);
      expect(await suite.store.repos.accountFactors.useRecoveryCode(subjectId, 'a', 3_001)).toBe(false);
      expect(await suite.store.repos.accountFactors.recoveryCodesOf(subjectId)).toMatchObject({ createdAt: 3_000, unused: 1 });
      await suite.store.repos.accountFactors.removeRecoveryCodes(subjectId);
      expect(await suite.store.repos.accountFactors.recoveryCodesOf(subjectId)).toBeUndefined();
    });

    it('removes one factor or all of a person\'s, never another person\'s', async () => {
      const subjectId = await aPerson();
      const other = aTotp(await aPerson());
      const [first, second] = [aTotp(subjectId), aTotp(subjectId)];
      for (const factor of [first, second, other]) await suite.store.repos.accountFactors.insert(factor);
      expect(await suite.store.repos.accountFactors.remove(other.subjectId, first.factorId)).toBe(false);
      expect(await suite.store.repos.accountFactors.remove(subjectId, first.factorId)).toBe(true);
      expect(await suite.store.repos.accountFactors.removeAllOf(subjectId)).toBe(1);
      expect(await suite.store.repos.accountFactors.listOf(other.subjectId)).toHaveLength(1);
    });
  });

  describe('security settings', () => {
    it('starts at "none", version 1, and changes only from the current version', async () => {
      expect(await suite.store.repos.securitySettings.get()).toEqual({ mfaRequired: 'none', version: 1 });
      const racing = await Promise.all(['admins', 'everyone'].map((policy) => suite.store.transaction((repos) => repos.securitySettings.updateIfVersion(1, policy as 'admins' | 'everyone', 1_000))));
      expect(racing.filter(Boolean)).toHaveLength(1);
      const after = await suite.store.repos.securitySettings.get();
      expect(after.version).toBe(2);
      expect(after.mfaRequired).toBe(racing[0] ? 'admins' : 'everyone');
      expect(await suite.store.repos.securitySettings.updateIfVersion(1, 'none', 2_000)).toBe(false);
      expect(await suite.store.repos.securitySettings.updateIfVersion(2 ** 40, 'none', 2_000)).toBe(false);
    });
  });

  describe('idempotency keys', () => {
    function aRecord(subjectId: string, key: string, expiresAt = 10_000) {
      return { subjectId, key, requestSalt: 'salt', requestDigest: 'digest', createdAt: 1_000, expiresAt };
    }

    it('gives a key to one of two racing first requests, per caller', async () => {
      const subjectId = randomUUID();
      const racing = await Promise.all([1, 2].map(() => suite.store.transaction((repos) => repos.idempotencyKeys.reserve(aRecord(subjectId, 'k1')))));
      expect(racing.filter(Boolean)).toHaveLength(1);
      expect(await suite.store.repos.idempotencyKeys.reserve(aRecord(randomUUID(), 'k1'))).toBe(true);
      expect(await suite.store.repos.idempotencyKeys.find(subjectId, 'k1')).toEqual({ ...aRecord(subjectId, 'k1'), response: undefined });
    });

    it('keeps the first response, and frees a released or expired key', async () => {
      const subjectId = randomUUID();
      await suite.store.repos.idempotencyKeys.reserve(aRecord(subjectId, 'done'));
      await suite.store.repos.idempotencyKeys.complete(subjectId, 'done', { status: 201, body: { project: { name: 'Payroll' } } });
      expect((await suite.store.repos.idempotencyKeys.find(subjectId, 'done'))?.response).toEqual({ status: 201, body: { project: { name: 'Payroll' } } });
      await suite.store.repos.idempotencyKeys.reserve(aRecord(subjectId, 'failed'));
      await suite.store.repos.idempotencyKeys.release(subjectId, 'failed');
      expect(await suite.store.repos.idempotencyKeys.find(subjectId, 'failed')).toBeUndefined();
      await suite.store.repos.idempotencyKeys.reserve(aRecord(subjectId, 'old', 5_000));
      expect(await suite.store.repos.idempotencyKeys.pruneExpired(5_000)).toBeGreaterThanOrEqual(1);
      expect(await suite.store.repos.idempotencyKeys.find(subjectId, 'old')).toBeUndefined();
      expect(await suite.store.repos.idempotencyKeys.find(subjectId, 'done')).toBeDefined();
    });
  });
});

import { describe, expect, it } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { useMigratedStore } from '../helpers/migrated-store.ts';

describe.each(TEST_ENGINES)('mail outbox repository on %s', (engine) => {
  const suite = useMigratedStore(engine);

  let counter = 0;
  async function enqueue(count: number): Promise<string[]> {
    const ids = Array.from({ length: count }, () => `mail_test_${counter++}`);
    for (const mailId of ids) {
      await suite.store.repos.mailOutbox.enqueue({ mailId, kind: 'security_notice', recipient: 'a@example.test', subjectId: null, linkId: null, params: { notice: 'password_changed' }, createdAt: 1 });
    }
    return ids;
  }
  const claim = (claimId: string, now: number, limit = 100) => suite.store.repos.mailOutbox.claimDue({ claimId, now, dueBy: now, leaseUntil: now + 30_000, limit });

  it('never hands one mail to two claims made at the same time', async () => {
    const ids = await enqueue(40);
    const claims = await Promise.all(Array.from({ length: 4 }, (_, i) => claim(`c${i}`, 1_000, 15)));
    const claimed = claims.flat().map((mail) => mail.mailId);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.sort()).toEqual([...ids].sort());
    for (const [i, mails] of claims.entries()) for (const mail of mails) expect(await suite.store.repos.mailOutbox.markSent(mail.mailId, `c${i}`, 2_000)).toBe(true);
    expect(await suite.store.repos.mailOutbox.countPending()).toBe(0);
  });

  it('frees a claim when its lease lapses, and refuses the old claim afterwards', async () => {
    const [mailId] = await enqueue(1);
    expect((await claim('slow', 10_000)).map((mail) => mail.mailId)).toEqual([mailId]);
    expect(await claim('early', 20_000)).toEqual([]);
    const taken = await claim('late', 40_000);
    expect(taken.map((mail) => [mail.mailId, mail.attempts])).toEqual([[mailId, 2]]);
    expect(await suite.store.repos.mailOutbox.renewClaim(mailId!, 'slow', 70_000)).toBe(false);
    expect(await suite.store.repos.mailOutbox.markSent(mailId!, 'slow', 41_000)).toBe(false);
    expect(await suite.store.repos.mailOutbox.markSent(mailId!, 'late', 41_000)).toBe(true);
    expect((await suite.store.repos.mailOutbox.findById(mailId!))?.sentAt).toBe(41_000);
  });

  it('waits out a failed send until its next try, unless the claim passes the far future (a restart)', async () => {
    const [mailId] = await enqueue(1);
    await claim('w', 100_000);
    expect(await suite.store.repos.mailOutbox.markFailed(mailId!, 'w', 130_000, 'connection refused')).toBe(true);
    expect(await claim('x', 110_000)).toEqual([]);
    const restarted = await suite.store.repos.mailOutbox.claimDue({ claimId: 'y', now: 110_000, dueBy: Number.MAX_SAFE_INTEGER, leaseUntil: 140_000, limit: 10 });
    expect(restarted.map((mail) => [mail.mailId, mail.lastError])).toEqual([[mailId, 'connection refused']]);
    expect(await suite.store.repos.mailOutbox.releaseClaim('y')).toBe(1);
    expect((await claim('z', 131_000)).map((mail) => mail.mailId)).toEqual([mailId]);
    expect(await suite.store.repos.mailOutbox.markDropped(mailId!, 'z', 131_500, 'given up')).toBe(true);
    expect(await suite.store.repos.mailOutbox.countPending()).toBe(0);
  });
});

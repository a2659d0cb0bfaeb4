import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/domain/actor.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { startSmtpCapture, type SmtpCapture } from '../helpers/smtp-capture.ts';

/** Waits until the `count` addresses have mail, then a little longer so a duplicate would show. */
async function expectEachOnce(smtp: SmtpCapture, addresses: string[]): Promise<void> {
  await smtp.waitForCount((mail) => addresses.includes(mail.envelopeTo[0] ?? ''), addresses.length, 45_000);
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  const received = smtp.mails.filter((mail) => addresses.includes(mail.envelopeTo[0] ?? ''));
  expect(received.map((mail) => mail.envelopeTo[0]).sort()).toEqual([...addresses].sort());
  expect(new Set(received.map((mail) => mail.messageId)).size).toBe(addresses.length);
}

const invite = (ctx: TestContext, account: string) =>
  ctx.services.users.inviteUser(cliActor, { account, displayName: account, email: `${account}@example.test` });

describe.each(TEST_ENGINES)('the mail outbox on %s', (engine) => {
  let smtp: SmtpCapture;
  let first: TestContext;
  const opened: TestContext[] = [];
  beforeAll(async () => {
    smtp = await startSmtpCapture();
    first = await createTestContext(engine, { SMTP_URL: smtp.url });
  });
  afterEach(async () => {
    if ((await first.services.outgoingMail.countPending()) > 0) throw new Error('mail left pending');
  });
  afterAll(async () => {
    for (const ctx of opened) await ctx.close();
    await first.close();
    await smtp.stop();
  });

  /** Another Sesame instance on the same database. */
  async function anotherInstance(): Promise<TestContext> {
    const ctx = await createTestContext(engine, { SMTP_URL: smtp.url }, { connectThrough: () => first.databaseUrl });
    opened.push(ctx);
    return ctx;
  }

  it('loses nothing when the mail server stops during a burst of invitations, and sends each once when it is back', async () => {
    const accounts = Array.from({ length: 12 }, (_, i) => `burst-${i}`);
    for (const account of accounts.slice(0, 4)) await invite(first, account);
    await smtp.stop();
    for (const account of accounts.slice(4)) await invite(first, account);
    // Let sends fail and back off for a while.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await first.services.outgoingMail.countPending()).toBeGreaterThan(0);
    await smtp.start();
    await expectEachOnce(smtp, accounts.map((account) => `${account}@example.test`));
  });

  it('sends what was pending at once after a restart, each mail once', async () => {
    const accounts = Array.from({ length: 8 }, (_, i) => `restart-${i}`);
    await smtp.stop();
    const before = await anotherInstance();
    for (const account of accounts) await invite(before, account);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    // The instance stops (its worker frees what it held), the mail server comes back, a new instance starts.
    await before.app.close();
    await smtp.start();
    const startedAt = Date.now();
    await anotherInstance();
    await expectEachOnce(smtp, accounts.map((account) => `${account}@example.test`));
    const lastArrival = Math.max(...smtp.mails.filter((mail) => mail.envelopeTo[0]?.startsWith('restart-')).map((mail) => mail.receivedAt));
    expect(lastArrival - startedAt).toBeLessThan(15_000);
  });

  it.runIf(engine === 'postgres')('two instances on one database send each mail once', async () => {
    const second = await anotherInstance();
    const accounts = Array.from({ length: 30 }, (_, i) => `pair-${i}`);
    await Promise.all(accounts.map((account, i) => invite(i % 2 === 0 ? first : second, account)));
    await expectEachOnce(smtp, accounts.map((account) => `${account}@example.test`));
  });
});

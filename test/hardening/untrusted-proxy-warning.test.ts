import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';

const PRODUCTION = {
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  OIDC_ISSUER: 'https://id.example.test',
  OIDC_KEY_ENCRYPTION_SECRET: 'k'.repeat(40),
  OIDC_COOKIE_KEYS: 'c'.repeat(40),
  OIDC_BOOTSTRAP_ADMIN_PASSWORD: 'a long production password',
};

function warnings(lines: string): { msg: string; header?: string }[] {
  return lines
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { level: number; msg: string; header?: string })
    .filter((entry) => entry.level === 40 && entry.msg.includes('TRUST_PROXY'));
}

// Behind a proxy without TRUST_PROXY every person shares the proxy's address, and with it one sign-in bucket.
describe.skipIf(!TEST_ENGINES.includes('sqlite'))('a production start without TRUST_PROXY', () => {
  let ctx: TestContext | undefined;
  let logged = '';
  const start = async (env: Record<string, string>) => {
    logged = '';
    const logStream = new Writable({ write: (chunk, _encoding, done) => ((logged += String(chunk)), done()) });
    ctx = await createTestContext('sqlite', env, { logStream });
    return ctx;
  };
  afterEach(async () => {
    await ctx?.close();
    ctx = undefined;
  });

  it('warns at start, and once more at the first request carrying X-Forwarded-For', async () => {
    const app = (await start(PRODUCTION)).app;
    expect(warnings(logged)).toHaveLength(1);
    await app.inject({ url: '/health/live' });
    expect(warnings(logged)).toHaveLength(1);
    for (let i = 0; i < 3; i += 1) await app.inject({ url: '/health/live', headers: { 'x-forwarded-for': `203.0.113.${i}` } });
    const seen = warnings(logged);
    expect(seen).toHaveLength(2);
    expect(seen[1]).toMatchObject({ header: 'x-forwarded-for' });
    expect(seen[1]?.msg).toContain('Set TRUST_PROXY');
  });

  it('says nothing when TRUST_PROXY is set', async () => {
    const app = (await start({ ...PRODUCTION, TRUST_PROXY: '1' })).app;
    await app.inject({ url: '/health/live', headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(warnings(logged)).toHaveLength(0);
  });

  it('says nothing outside production', async () => {
    const app = (await start({ LOG_LEVEL: 'warn' })).app;
    await app.inject({ url: '/health/live', headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(warnings(logged)).toHaveLength(0);
  });
});

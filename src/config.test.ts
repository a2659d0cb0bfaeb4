import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const productionBase = {
  NODE_ENV: 'production',
  OIDC_ISSUER: 'https://id.example.com/',
  OIDC_KEY_ENCRYPTION_SECRET: 'k'.repeat(32),
  OIDC_COOKIE_KEYS: `${'a'.repeat(32)}, ${'b'.repeat(32)}`,
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadConfig', () => {
  it('applies the documented defaults outside production', () => {
    expect(loadConfig({})).toMatchObject({
      env: 'development',
      port: 3000,
      host: '127.0.0.1',
      issuer: 'http://localhost:3000',
      databaseUrl: 'sqlite:./data/sesame.db',
      agentApiEnabled: true,
      keyEncryptionSecret: undefined,
      cookieKeys: undefined,
      bootstrapAdmin: { account: 'admin', password: undefined },
      logLevel: 'info',
    });
    expect(loadConfig({ PORT: '8080' }).issuer).toBe('http://localhost:8080');
  });

  it('treats an empty PORT as unset rather than as port 0', () => {
    expect(loadConfig({ PORT: '' }).port).toBe(3000);
    expect(problemsOf({ PORT: '3000.5' })).toEqual(['PORT: must be a port number']);
  });

  it('accepts only redis:// and rediss:// for REDIS_URL', () => {
    expect(loadConfig({ REDIS_URL: 'rediss://cache.internal:6380/0' }).redisUrl).toBe('rediss://cache.internal:6380/0');
    expect(problemsOf({ REDIS_URL: 'http://cache.internal' })).toEqual(['REDIS_URL: must be a redis:// or rediss:// URL']);
  });

  it('names every variable at fault', () => {
    expect(problemsOf({ OIDC_AGENT_API_ENABLED: 'maybe', OIDC_COOKIE_KEYS: 'short', DATABASE_URL: 'mysql://x/y' })).toEqual([
      'DATABASE_URL: must be postgres://... or sqlite:PATH',
      'OIDC_AGENT_API_ENABLED: must be true or false',
      'OIDC_COOKIE_KEYS: each key must be at least 32 characters',
    ]);
  });

  it('in production: defaults to 0.0.0.0, no Agent API, and the issuer without its trailing slash', () => {
    expect(loadConfig(productionBase)).toMatchObject({ production: true, host: '0.0.0.0', agentApiEnabled: false, issuer: 'https://id.example.com', cookieKeys: ['a'.repeat(32), 'b'.repeat(32)] });
  });

  it('in production: refuses an http issuer, missing secrets and a default or short bootstrap password', () => {
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([
      'OIDC_ISSUER: must be an https:// URL in production',
      'OIDC_KEY_ENCRYPTION_SECRET: required in production (at least 32 random characters)',
      'OIDC_COOKIE_KEYS: required in production (comma-separated, each at least 32 random characters)',
    ]);
    for (const password of ['changeme', 'Password1', 'short-pw']) {
      expect(problemsOf({ ...productionBase, OIDC_BOOTSTRAP_ADMIN_PASSWORD: password })).toEqual([
        'OIDC_BOOTSTRAP_ADMIN_PASSWORD: a default or short password is refused in production (use at least 12 characters)',
      ]);
    }
    expect(problemsOf({ ...productionBase, OIDC_BOOTSTRAP_ADMIN_PASSWORD: 'a long unguessable passphrase' })).toEqual([]);
  });

  it('accepts a TRUST_PROXY hop count or address list, and names it when it is neither', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe('1');
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1, ::1/128' }).trustProxy).toBe('10.0.0.0/8, 127.0.0.1, ::1/128');
    expect(loadConfig({ TRUST_PROXY: 'loopback,uniquelocal' }).trustProxy).toBe('loopback,uniquelocal');
    for (const value of ['true', '10.0.0.0/33', 'proxy.internal', '1.2.3.4/8/9', 'loopback/8']) {
      expect(problemsOf({ TRUST_PROXY: value })).toEqual([
        'TRUST_PROXY: must be a hop count (e.g. 1) or comma-separated addresses, CIDRs or loopback/linklocal/uniquelocal (e.g. loopback,10.0.0.0/8)',
      ]);
    }
  });

  it('turns client ID metadata documents on by default, off on request, and reads the allowed hosts as host:port pairs', () => {
    expect(loadConfig({}).assistantMetadata).toEqual({ enabled: true, allowedHosts: [] });
    expect(loadConfig({ ASSISTANT_METADATA_DOCUMENTS: 'off' }).assistantMetadata.enabled).toBe(false);
    expect(loadConfig({ ASSISTANT_METADATA_DOCUMENTS: 'on' }).assistantMetadata.enabled).toBe(true);
    expect(loadConfig({ ASSISTANT_METADATA_ALLOWED_HOSTS: 'LocalHost:8443, [::1]:443,docs.internal:443' }).assistantMetadata.allowedHosts).toEqual([
      'localhost:8443',
      '[::1]:443',
      'docs.internal:443',
    ]);
    expect(problemsOf({ ASSISTANT_METADATA_DOCUMENTS: 'maybe' })).toEqual(['ASSISTANT_METADATA_DOCUMENTS: must be on or off']);
    for (const value of ['localhost', 'localhost:0', 'localhost:70000', 'https://localhost:8443', '::1:443', 'a b:1']) {
      expect(problemsOf({ ASSISTANT_METADATA_ALLOWED_HOSTS: value })).toEqual([
        'ASSISTANT_METADATA_ALLOWED_HOSTS: must be comma-separated host:port pairs, e.g. localhost:8443,[::1]:8443,docs.internal:443',
      ]);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { createDeviceCookie, DEVICE_COOKIE_DAYS } from './device-cookie.ts';

const KEY = 'k'.repeat(32);
const OTHER_KEY = 'o'.repeat(32);
const SUBJECT = '3f1c2a9e-5b7d-4c1e-9a2b-7d6e5f4c3b2a';
const cookiePair = (setCookie: string) => setCookie.split(';')[0]!;

describe('the known-device cookie', () => {
  it('is HttpOnly, SameSite=Lax, Path=/, lives 90 days, and is __Host- and Secure on https', () => {
    const plain = createDeviceCookie({ issuer: 'http://localhost:3000', cookieKeys: [KEY] }).issue(SUBJECT);
    expect(plain).toMatch(/^sesame_device=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=7776000$/);
    expect(DEVICE_COOKIE_DAYS * 86_400).toBe(7_776_000);
    const secure = createDeviceCookie({ issuer: 'https://id.example.com', cookieKeys: [KEY] }).issue(SUBJECT);
    expect(secure).toMatch(/^__Host-sesame_device=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Secure; Max-Age=7776000$/);
  });

  it('names the subject it was issued for, among other cookies', () => {
    const device = createDeviceCookie({ issuer: 'http://localhost:3000', cookieKeys: [KEY] });
    expect(device.subjectOf(`a=b; ${cookiePair(device.issue(SUBJECT))}; c=d`)).toBe(SUBJECT);
    expect(device.subjectOf(undefined)).toBeNull();
    expect(device.subjectOf('sesame_device=')).toBeNull();
  });

  it('is refused when altered, made under an unknown key, or expired', () => {
    let now = Date.UTC(2026, 0, 1);
    const device = createDeviceCookie({ issuer: 'http://localhost:3000', cookieKeys: [KEY], now: () => now });
    const value = cookiePair(device.issue(SUBJECT)).slice('sesame_device='.length);
    const [subject, expires, mac] = value.split('.') as [string, string, string];
    const otherSubject = Buffer.from('someone-else').toString('base64url');
    expect(device.subjectOf(`sesame_device=${otherSubject}.${expires}.${mac}`)).toBeNull();
    expect(device.subjectOf(`sesame_device=${subject}.${Number(expires) + 86_400}.${mac}`)).toBeNull();
    expect(device.subjectOf(`sesame_device=${subject}.${expires}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`)).toBeNull();
    const forged = createDeviceCookie({ issuer: 'http://localhost:3000', cookieKeys: [OTHER_KEY], now: () => now }).issue(SUBJECT);
    expect(device.subjectOf(cookiePair(forged))).toBeNull();
    now += DEVICE_COOKIE_DAYS * 86_400_000 + 1000;
    expect(device.subjectOf(`sesame_device=${value}`)).toBeNull();
  });

  it('stays valid across a key rotation: every configured key verifies, the first signs', () => {
    const before = createDeviceCookie({ issuer: 'http://localhost:3000', cookieKeys: [KEY] }).issue(SUBJECT);
    const rotated = createDeviceCookie({ issuer: 'http://localhost:3000', cookieKeys: [OTHER_KEY, KEY] });
    expect(rotated.subjectOf(cookiePair(before))).toBe(SUBJECT);
    expect(createDeviceCookie({ issuer: 'http://localhost:3000', cookieKeys: [KEY] }).subjectOf(cookiePair(rotated.issue(SUBJECT)))).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { grantableScopes, missingScope, scopesRequiredFor, steppedUpScopes } from './assistant-scopes.ts';
import { nativeRedirectUriMatches } from './client-rules.ts';

describe('assistant scopes', () => {
  it('maps reads to sesame:read, every other method to sesame:write, and /admin to sesame:admin as well', () => {
    expect(scopesRequiredFor({ method: 'GET', path: '/projects' })).toEqual(['sesame:read']);
    expect(scopesRequiredFor({ method: 'DELETE', path: '/projects/:projectId/members/:subjectId' })).toEqual(['sesame:write']);
    expect(scopesRequiredFor({ method: 'GET', path: '/admin/users' })).toEqual(['sesame:read', 'sesame:admin']);
    expect(scopesRequiredFor({ method: 'POST', path: '/admin/users' })).toEqual(['sesame:write', 'sesame:admin']);
    expect(scopesRequiredFor({ method: 'GET', path: '/administrators' })).toEqual(['sesame:read']);
    expect(scopesRequiredFor({ method: 'POST', path: '/auth/disconnect' })).toEqual(['sesame:read']);
  });

  it('steps up to what the token has plus what the operation needs, in one order', () => {
    expect(steppedUpScopes(['sesame:read'], { method: 'POST', path: '/projects' })).toEqual(['sesame:read', 'sesame:write']);
    expect(steppedUpScopes(['sesame:write'], { method: 'GET', path: '/admin/users' })).toEqual(['sesame:read', 'sesame:write', 'sesame:admin']);
    expect(steppedUpScopes(['sesame:read', 'sesame:write'], { method: 'PATCH', path: '/admin/users/:subjectId' })).toEqual(['sesame:read', 'sesame:write', 'sesame:admin']);
    expect(steppedUpScopes(['sesame:admin'], { method: 'GET', path: '/projects' })).toEqual(['sesame:read', 'sesame:admin']);
  });

  it('lets sesame:write imply sesame:read and nothing imply sesame:admin', () => {
    expect(missingScope(['sesame:write'], { method: 'GET', path: '/projects' })).toBeUndefined();
    expect(missingScope(['sesame:read'], { method: 'POST', path: '/projects' })).toBe('sesame:write');
    expect(missingScope(['sesame:read', 'sesame:write'], { method: 'GET', path: '/admin/users' })).toBe('sesame:admin');
    expect(missingScope([], { method: 'GET', path: '/projects' })).toBe('sesame:read');
  });

  it('grants sesame:admin only to administrators, and sesame:read alone when the person chose read-only', () => {
    const asked = ['sesame:read', 'sesame:write', 'sesame:admin', 'openid'];
    expect(grantableScopes(asked, { isAdmin: false, readOnly: false })).toEqual(['sesame:read', 'sesame:write']);
    expect(grantableScopes(asked, { isAdmin: true, readOnly: false })).toEqual(['sesame:read', 'sesame:write', 'sesame:admin']);
    expect(grantableScopes(asked, { isAdmin: true, readOnly: true })).toEqual(['sesame:read']);
    expect(grantableScopes(['openid'], { isAdmin: true, readOnly: true })).toEqual([]);
  });
});

describe('native redirect URI matching (RFC 8252 7.3)', () => {
  it('ignores the port of a loopback URI only', () => {
    expect(nativeRedirectUriMatches('http://127.0.0.1/cb', 'http://127.0.0.1:51234/cb')).toBe(true);
    expect(nativeRedirectUriMatches('http://[::1]/cb', 'http://[::1]:8080/cb')).toBe(true);
    expect(nativeRedirectUriMatches('http://localhost:3000/cb', 'http://localhost:4000/cb')).toBe(true);
    expect(nativeRedirectUriMatches('http://127.0.0.1/cb', 'http://localhost:51234/cb')).toBe(false);
    expect(nativeRedirectUriMatches('http://127.0.0.1/cb', 'http://127.0.0.1:51234/cb/')).toBe(false);
    expect(nativeRedirectUriMatches('http://127.0.0.1/cb', 'https://127.0.0.1:51234/cb')).toBe(false);
    expect(nativeRedirectUriMatches('http://127.0.0.1/cb', 'http://user@127.0.0.1:51234/cb')).toBe(false);
    expect(nativeRedirectUriMatches('com.example.app:/cb', 'com.example.app:/cb')).toBe(true);
    expect(nativeRedirectUriMatches('com.example.app:/cb', 'com.example.app:/other')).toBe(false);
  });
});

import { describe, expect, test } from 'vitest';
import { configProblems, problemsByField } from '../../web/src/client-config.ts';

// The API names a bad item by its path (`redirectUris.1`); the console's forms show it beside the whole field.
describe('field paths in the console', () => {
  test('gathers the problems of a list and of its items under the list, each item named', () => {
    expect(problemsByField({ redirectUris: 'must not contain duplicates', 'redirectUris.1': 'must use https', scopeWhitelist: 'must contain openid' })).toEqual({
      redirectUris: 'must not contain duplicates; URI 2: must use https',
      scopeWhitelist: 'must contain openid',
    });
  });

  test('shows a native client\'s https redirect URI, which only the type rules refuse, beside its field', () => {
    const problems = configProblems('native', { redirectUris: 'http://127.0.0.1/cb\nhttps://app.example.com/cb', postLogoutRedirectUris: '', scopeWhitelist: ['openid'], requirePkce: true, claimsInIdToken: false });
    expect(problems).toEqual({ redirectUris: expect.stringMatching(/^URI 2: a native client redirects to loopback http/) });
  });
});

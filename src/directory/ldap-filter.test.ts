import { describe, expect, it } from 'vitest';
import { escapeFilterValue, userSearchFilter } from './ldap-filter.ts';

describe('LDAP filter escaping (RFC 4515)', () => {
  it('escapes the five characters RFC 4515 names, and nothing else', () => {
    expect(escapeFilterValue('*')).toBe('\\2a');
    expect(escapeFilterValue('(')).toBe('\\28');
    expect(escapeFilterValue(')')).toBe('\\29');
    expect(escapeFilterValue('\\')).toBe('\\5c');
    expect(escapeFilterValue('\0')).toBe('\\00');
    expect(escapeFilterValue('ada.lovelace-1_é@example.org')).toBe('ada.lovelace-1_é@example.org');
  });

  it('keeps an injection attempt a single literal value', () => {
    expect(userSearchFilter('(uid={account})', '*)(uid=*')).toBe('(uid=\\2a\\29\\28uid=\\2a)');
    expect(userSearchFilter('(|(uid={account})(mail={account}))', 'a*')).toBe('(|(uid=a\\2a)(mail=a\\2a))');
  });

  it('treats `$` patterns in the account as text, not as replacement syntax', () => {
    expect(userSearchFilter('(uid={account})', "$&$'")).toBe("(uid=$&$')");
  });
});

/**
 * RFC 4515 section 3: in an assertion value, `*`, `(`, `)`, `\` and NUL are written as `\` and two hex
 * digits. Escaping every one of them is what keeps an account name such as `*)(uid=*` a literal value
 * instead of more filter.
 */
export function escapeFilterValue(value: string): string {
  return value.replace(/[*()\\\0]/g, (character) => `\\${character.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** The directory's group search filter with every `{dn}` replaced by the escaped DN of the person's entry. */
export function groupSearchFilter(template: string, dn: string): string {
  const escaped = escapeFilterValue(dn);
  return template.replaceAll('{dn}', () => escaped);
}

/** The directory's user search filter with every `{account}` replaced by the escaped account name. */
export function userSearchFilter(template: string, account: string): string {
  const escaped = escapeFilterValue(account);
  return template.replaceAll('{account}', () => escaped);
}

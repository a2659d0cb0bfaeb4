/** A path inside the console to come back to after signing in: one leading slash, never `//host` (another site). */
export const isConsolePath = (value: string): boolean => value.startsWith('/') && !value.startsWith('//');

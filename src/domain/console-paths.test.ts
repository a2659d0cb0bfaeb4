import { describe, expect, it } from 'vitest';
import { isConsolePath } from './console-paths.ts';

describe('isConsolePath', () => {
  it('takes the console\'s own paths', () => {
    for (const path of ['/', '/projects', '/account/identities?tab=1']) expect(isConsolePath(path), path).toBe(true);
  });

  it('refuses addresses elsewhere: another host, a scheme, no leading slash', () => {
    for (const path of ['//evil.example/', '///evil.example', 'https://evil.example/', 'projects', '']) expect(isConsolePath(path), path).toBe(false);
  });
});

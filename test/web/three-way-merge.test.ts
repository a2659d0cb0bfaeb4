import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Client } from '../../web/src/api/types.ts';
import { bodyFromDraft, configListFields, draftFromClient } from '../../web/src/client-config.ts';
import { mergeList, sameValue, threeWayMerge } from '../../web/src/three-way-merge.ts';

describe('threeWayMerge', () => {
  const base = { name: 'Shop', description: 'old', tags: ['a'] };

  test('a field only they changed takes their value; one only I changed keeps mine', () => {
    const mine = { ...base, description: 'mine' };
    const theirs = { ...base, name: 'Shop 2', tags: ['a', 'b'] };
    expect(threeWayMerge(base, mine, theirs)).toEqual({ merged: { name: 'Shop 2', description: 'mine', tags: ['a', 'b'] }, conflicts: [] });
  });

  test('a field both changed to different values is a conflict, and the merge holds mine there', () => {
    const mine = { ...base, name: 'Mine', tags: ['a', 'c'] };
    const theirs = { ...base, name: 'Theirs', tags: ['a', 'b'], description: 'theirs' };
    expect(threeWayMerge(base, mine, theirs)).toEqual({ merged: { name: 'Mine', description: 'theirs', tags: ['a', 'c'] }, conflicts: ['name', 'tags'] });
  });

  test('both making the same change is no conflict', () => {
    const same = { ...base, tags: ['a', 'b'] };
    expect(threeWayMerge(base, same, { ...same })).toEqual({ merged: same, conflicts: [] });
  });

  test('comparable decides what counts as a change: reformatting a field is not an edit of it', () => {
    const trimmed = (record: typeof base) => ({ ...record, description: record.description.trim() });
    const mine = { ...base, description: 'old  ' };
    const theirs = { ...base, description: 'new' };
    expect(threeWayMerge(base, mine, theirs, trimmed)).toEqual({ merged: theirs, conflicts: [] });
  });

  const record = fc.record({ a: fc.string(), b: fc.array(fc.string(), { maxLength: 3 }), c: fc.boolean() });

  test('without edits of mine the result is theirs; without edits of theirs it is mine; never a conflict in either', () => {
    fc.assert(
      fc.property(record, record, (start, other) => {
        expect(threeWayMerge(start, start, other)).toEqual({ merged: other, conflicts: [] });
        expect(threeWayMerge(start, other, start)).toEqual({ merged: other, conflicts: [] });
      }),
    );
  });

  test('every field of the merge is mine where I changed it and theirs elsewhere; conflicts are exactly the fields changed apart', () => {
    fc.assert(
      fc.property(record, record, record, (start, mine, theirs) => {
        const { merged, conflicts } = threeWayMerge(start, mine, theirs);
        for (const key of ['a', 'b', 'c'] as const) {
          const iChanged = !sameValue(mine[key], start[key]);
          expect(merged[key]).toEqual(iChanged ? mine[key] : theirs[key]);
          const clash = iChanged && !sameValue(theirs[key], start[key]) && !sameValue(theirs[key], mine[key]);
          expect(conflicts.includes(key)).toBe(clash);
        }
      }),
    );
  });
});

describe('sameValue', () => {
  test('compares arrays and objects by content, in order', () => {
    expect(sameValue(['a', 'b'], ['a', 'b'])).toBe(true);
    expect(sameValue(['a', 'b'], ['b', 'a'])).toBe(false);
    expect(sameValue({ x: [1] }, { x: [1] })).toBe(true);
    expect(sameValue({ x: 1 }, { x: 1, y: undefined })).toBe(false);
    expect(sameValue(null, {})).toBe(false);
    expect(sameValue('1', 1)).toBe(false);
  });
});

// The console's OIDC configuration editor merges drafts (URIs one per line) compared as the body they save.
describe('merging a client configuration draft', () => {
  const client = {
    redirectUris: ['https://app.example/callback'],
    postLogoutRedirectUris: [],
    scopeWhitelist: ['openid', 'profile'],
    requirePkce: true,
  } as unknown as Client;

  test('a colleague added a redirect URI and a scope, I turned off PKCE: the save carries all three changes', () => {
    const theirs = { ...client, redirectUris: [...client.redirectUris, 'https://app.example/second'], scopeWhitelist: ['openid', 'profile', 'email'] } as Client;
    const mine = { ...draftFromClient(client), requirePkce: false };
    const { merged, conflicts } = threeWayMerge(draftFromClient(client), mine, draftFromClient(theirs), bodyFromDraft);
    expect(conflicts).toEqual([]);
    expect(bodyFromDraft(merged)).toEqual({
      redirectUris: ['https://app.example/callback', 'https://app.example/second'],
      postLogoutRedirectUris: [],
      scopeWhitelist: ['openid', 'profile', 'email'],
      requirePkce: false,
    });
  });

  test('blank lines and reordered scope ticks are not edits; a different scope set is a conflict when they changed it too', () => {
    const theirs = { ...client, redirectUris: ['https://app.example/moved'], scopeWhitelist: ['openid', 'email'] } as Client;
    const mine = { ...draftFromClient(client), redirectUris: '\n https://app.example/callback \n\n', scopeWhitelist: ['profile', 'openid', 'student'] as Client['scopeWhitelist'] };
    const { merged, conflicts } = threeWayMerge(draftFromClient(client), mine, draftFromClient(theirs), bodyFromDraft);
    expect(conflicts).toEqual(['scopeWhitelist']);
    expect(bodyFromDraft(merged)).toEqual({ redirectUris: ['https://app.example/moved'], postLogoutRedirectUris: [], scopeWhitelist: ['openid', 'profile', 'student'], requirePkce: true });
  });
});

describe('mergeList: both changed a list', () => {
  test('both added: the latest list in its order, then my additions', () => {
    expect(mergeList(['a'], ['a', 'mine'], ['a', 'theirs'])).toEqual(['a', 'theirs', 'mine']);
  });

  test('what either side removed stays removed; an addition both made appears once', () => {
    expect(mergeList(['a', 'b', 'c'], ['a', 'c', 'both', 'mine'], ['b', 'c', 'both'])).toEqual(['c', 'both', 'mine']);
  });

  test('the latest order is kept, my reordering is not an edit of it', () => {
    expect(mergeList(['a', 'b'], ['b', 'a', 'x'], ['b', 'a', 'y'])).toEqual(['b', 'a', 'y', 'x']);
  });

  const items = fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { maxLength: 6 });
  test('nobody\'s addition is lost, nothing removed comes back, nothing repeats', () => {
    fc.assert(
      fc.property(items, items, items, (base, mine, theirs) => {
        const merged = mergeList(base, mine, theirs);
        expect(new Set(merged).size).toBe(merged.length);
        for (const item of [...mine, ...theirs]) if (!base.includes(item)) expect(merged).toContain(item);
        for (const item of base) if (!mine.includes(item) || !theirs.includes(item)) expect(merged).not.toContain(item);
        for (const item of merged) expect(mine.includes(item) || theirs.includes(item)).toBe(true);
        // The latest list's survivors come first, in its order.
        const survivors = theirs.filter((item) => merged.includes(item));
        expect(merged.slice(0, survivors.length)).toEqual(survivors);
      }),
    );
  });
});

describe('merging a client configuration draft, list by list', () => {
  const client = {
    redirectUris: ['https://app.example/callback'],
    postLogoutRedirectUris: ['https://app.example/bye'],
    scopeWhitelist: ['openid', 'profile'],
    requirePkce: true,
  } as unknown as Client;

  test('both added a redirect URI: both are kept, theirs first; a scope each added and one I removed: no clash', () => {
    const theirs = { ...client, redirectUris: [...client.redirectUris, 'https://app.example/theirs'], scopeWhitelist: ['openid', 'profile', 'email'] } as Client;
    const mine = { ...draftFromClient(client), redirectUris: 'https://app.example/callback\nhttps://app.example/mine', scopeWhitelist: ['openid', 'student'] as Client['scopeWhitelist'] };
    const { merged, conflicts } = threeWayMerge(draftFromClient(client), mine, draftFromClient(theirs), bodyFromDraft, configListFields);
    expect(conflicts).toEqual([]);
    expect(merged.redirectUris).toBe('https://app.example/callback\nhttps://app.example/theirs\nhttps://app.example/mine');
    expect(bodyFromDraft(merged)).toEqual({
      redirectUris: ['https://app.example/callback', 'https://app.example/theirs', 'https://app.example/mine'],
      postLogoutRedirectUris: ['https://app.example/bye'],
      scopeWhitelist: ['openid', 'email', 'student'],
      requirePkce: true,
    });
  });

  test('a URI they removed does not come back though my draft still holds it; one I removed stays removed', () => {
    const theirs = { ...client, redirectUris: ['https://app.example/new'], postLogoutRedirectUris: ['https://app.example/bye', 'https://app.example/theirs-bye'] } as Client;
    const mine = { ...draftFromClient(client), redirectUris: 'https://app.example/callback\nhttps://app.example/mine', postLogoutRedirectUris: 'https://app.example/mine-bye' };
    const { merged, conflicts } = threeWayMerge(draftFromClient(client), mine, draftFromClient(theirs), bodyFromDraft, configListFields);
    expect(conflicts).toEqual([]);
    expect(bodyFromDraft(merged).redirectUris).toEqual(['https://app.example/new', 'https://app.example/mine']);
    expect(bodyFromDraft(merged).postLogoutRedirectUris).toEqual(['https://app.example/theirs-bye', 'https://app.example/mine-bye']);
  });
});

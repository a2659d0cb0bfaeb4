import { describe, expect, it } from 'vitest';
import { relyingPartyRecipe, type RecipeClient } from '../../src/domain/relying-party-recipe.ts';
import { recipeStepIn } from '../../web/src/recipe-text.ts';

const ISSUER = 'https://id.example.test';
/** Every wording of the recipe: each client type, PKCE optional, with and without offline_access, and no client (the guide's). */
const CLIENTS: (RecipeClient | undefined)[] = [
  undefined,
  { clientId: 'web-1', clientType: 'web', scopeWhitelist: ['openid', 'profile', 'offline_access'], requirePkce: true },
  { clientId: 'web-2', clientType: 'web', scopeWhitelist: ['openid'], requirePkce: false },
  { clientId: 'spa-1', clientType: 'spa', scopeWhitelist: ['openid', 'email'], requirePkce: true },
  { clientId: 'native-1', clientType: 'native', scopeWhitelist: ['openid', 'offline_access'], requirePkce: true },
  { clientId: 'web-3', clientType: 'web', scopeWhitelist: ['openid', 'profile', 'groups'], requirePkce: true, claimsInIdToken: true },
];
const steps = CLIENTS.flatMap((client) => relyingPartyRecipe(ISSUER, client));

describe('the relying-party recipe in the console, in every language', () => {
  it('says in English exactly what the Agent API guide says', () => {
    for (const step of steps) expect(recipeStepIn('en', step), step.id).toEqual({ title: `${step.title}.`, text: step.text });
  });

  it('says it in Chinese with the same names and values, and every placeholder filled', () => {
    for (const step of steps) {
      const { title, text } = recipeStepIn('zh-CN', step);
      expect(title + text, step.id).toMatch(/[\u4e00-\u9fff]/);
      expect(text, step.id).not.toMatch(/\{\w+\}/);
      for (const value of Object.values(step.values)) expect(text, step.id).toContain(value);
    }
  });
});

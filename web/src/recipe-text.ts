import type { RecipeStep, RecipeStepId } from '../../src/domain/relying-party-recipe.ts';
import { CATALOGUES, interpolate, type MessageKey } from '../../src/i18n/catalogues.ts';
import type { Locale } from '../../src/i18n/locales.ts';

const TITLES = {
  discovery: 'console.recipe.title.discovery',
  authorization: 'console.recipe.title.authorization',
  token: 'console.recipe.title.token',
  claims: 'console.recipe.title.claims',
  refresh: 'console.recipe.title.refresh',
  signOut: 'console.recipe.title.signOut',
} as const satisfies Record<string, MessageKey>;

const KEYS: Record<RecipeStepId, { title: MessageKey; text: MessageKey }> = {
  discovery: { title: TITLES.discovery, text: 'console.recipe.text.discovery' },
  authorization: { title: TITLES.authorization, text: 'console.recipe.text.authorization' },
  authorizationPkceOptional: { title: TITLES.authorization, text: 'console.recipe.text.authorizationPkceOptional' },
  tokenWeb: { title: TITLES.token, text: 'console.recipe.text.tokenWeb' },
  tokenPublic: { title: TITLES.token, text: 'console.recipe.text.tokenPublic' },
  tokenAny: { title: TITLES.token, text: 'console.recipe.text.tokenAny' },
  claims: { title: TITLES.claims, text: 'console.recipe.text.claims' },
  claimsInIdToken: { title: TITLES.claims, text: 'console.recipe.text.claimsInIdToken' },
  refreshSpa: { title: TITLES.refresh, text: 'console.recipe.text.refreshSpa' },
  refreshNone: { title: TITLES.refresh, text: 'console.recipe.text.refreshNone' },
  refreshRotating: { title: TITLES.refresh, text: 'console.recipe.text.refreshRotating' },
  refreshRotatingAny: { title: TITLES.refresh, text: 'console.recipe.text.refreshRotatingAny' },
  signOut: { title: TITLES.signOut, text: 'console.recipe.text.signOut' },
};

/**
 * A step of the relying-party recipe (src/domain) in a language of the catalogues, its title with the punctuation
 * that leads into the text. The domain's English is what the Agent API guide says; the English catalogue says the
 * same (test/web/recipe-text.test.ts).
 */
export function recipeStepIn(locale: Locale, step: RecipeStep): { title: string; text: string } {
  const catalogue = CATALOGUES[locale];
  const keys = KEYS[step.id];
  return { title: catalogue[keys.title], text: interpolate(catalogue[keys.text], { ...step.values, rule: catalogue['console.recipe.refreshRule'] }) };
}

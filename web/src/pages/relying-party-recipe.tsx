import type { ComponentChildren } from 'preact';
import { relyingPartyRecipe } from '../../../src/domain/relying-party-recipe.ts';
import type { Client } from '../api/types.ts';
import { currentLocale, t } from '../i18n.ts';
import { recipeStepIn } from '../recipe-text.ts';

/** `code` spans of the recipe's text as <code> elements. */
function withCode(text: string): ComponentChildren {
  return text.split('`').map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : part));
}

/** The relying-party recipe for this client: discovery, PKCE, client authentication, refresh tokens, claims. */
export function RelyingPartyRecipe({ client, issuer }: { client: Client; issuer: string }) {
  const steps = relyingPartyRecipe(issuer, client).map((step) => recipeStepIn(currentLocale(), step));
  return (
    <section aria-labelledby="relying-party-recipe">
      <h4 id="relying-party-recipe">{t('console.recipe.heading')}</h4>
      <p class="muted small">{t('console.recipe.intro')}</p>
      <ol class="recipe">
        {steps.map((step) => (
          <li key={step.title}>
            <strong>{step.title}</strong> {withCode(step.text)}
          </li>
        ))}
      </ol>
    </section>
  );
}

import type { ComponentChildren } from 'preact';
import { relyingPartyRecipe } from '../../../src/domain/relying-party-recipe.ts';
import type { Client } from '../api/types.ts';

const TEXT = {
  heading: 'Sign people in with this client',
  intro: 'What the application needs, step by step (the Agent API guide gives assistants the same recipe).',
};

/** `code` spans of the recipe's text as <code> elements. */
function withCode(text: string): ComponentChildren {
  return text.split('`').map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : part));
}

/** The relying-party recipe for this client: discovery, PKCE, client authentication, refresh tokens, claims. */
export function RelyingPartyRecipe({ client, issuer }: { client: Client; issuer: string }) {
  const steps = relyingPartyRecipe(issuer, client);
  return (
    <section aria-labelledby="relying-party-recipe">
      <h4 id="relying-party-recipe">{TEXT.heading}</h4>
      <p class="muted small">{TEXT.intro}</p>
      <ol class="recipe">
        {steps.map((step) => (
          <li key={step.title}>
            <strong>{step.title}.</strong> {withCode(step.text)}
          </li>
        ))}
      </ol>
    </section>
  );
}

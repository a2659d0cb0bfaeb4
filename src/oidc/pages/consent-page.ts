import { ASSISTANT_SCOPE_DESCRIPTIONS, type AssistantScope } from '../../domain/assistant-scopes.ts';
import type { Scope } from '../../domain/clients.ts';
import { SCOPE_CONSENT_TEXT } from '../../domain/scopes.ts';
import { html } from './html.ts';
import { layout } from './layout.ts';

/** What an assistant (a native client asking for Sesame's own resources) asks to do for the person. */
export interface AssistantRequest {
  /** The assistant scopes this person can grant (sesame:admin only for an administrator). */
  scopes: AssistantScope[];
  /** How long the access lasts, in plain words. */
  duration: string;
}

export interface ConsentPageInput {
  uid: string;
  csrfToken: string;
  clientName: string;
  userName: string;
  account: string;
  scopes: Scope[];
  assistant?: AssistantRequest | undefined;
}

export function renderConsentPage(input: ConsentPageInput): string {
  return input.assistant ? renderAssistantConsent(input, input.assistant) : renderApplicationConsent(input);
}

function renderApplicationConsent(input: ConsentPageInput): string {
  const uid = encodeURIComponent(input.uid);
  return layout({
    title: 'Allow access?',
    subtitle: html`<strong>${input.clientName}</strong> would like to:`,
    body: html`
<ul class="plain-list">
${input.scopes.map((scope) => html`<li>${SCOPE_CONSENT_TEXT[scope]}</li>`)}
</ul>
<p class="muted small">Signed in as ${input.userName} (${input.account}). Sesame remembers your answer for this application.</p>
<form class="actions" method="post" action="/interaction/${uid}/confirm">
<input type="hidden" name="csrf" value="${input.csrfToken}">
<button class="button button-primary" type="submit">Allow</button>
<button class="button" type="submit" formaction="/interaction/${uid}/abort">Deny</button>
</form>`,
  });
}

/**
 * "Allow" grants what was asked; "Allow read-only" is the person's opt-out of changes, offered
 * whenever the assistant asked to change anything.
 */
function renderAssistantConsent(input: ConsentPageInput, assistant: AssistantRequest): string {
  const uid = encodeURIComponent(input.uid);
  const changes = assistant.scopes.some((scope) => scope !== 'sesame:read');
  const otherScopes = input.scopes.filter((scope) => scope !== 'openid');
  return layout({
    title: 'Allow this assistant?',
    subtitle: html`The assistant <strong>${input.clientName}</strong> asks to act in Sesame as you, ${changes ? 'reading and changing' : 'reading only'}:`,
    body: html`
<ul class="plain-list">
${assistant.scopes.map((scope) => html`<li>${ASSISTANT_SCOPE_DESCRIPTIONS[scope]}</li>`)}
${otherScopes.map((scope) => html`<li>${SCOPE_CONSENT_TEXT[scope]}</li>`)}
</ul>
<p>It can never do more than your own role allows. ${assistant.duration}</p>
<p class="muted small">Signed in as ${input.userName} (${input.account}). You can revoke this access at any time under My account, connections.</p>
<form class="actions" method="post" action="/interaction/${uid}/confirm">
<input type="hidden" name="csrf" value="${input.csrfToken}">
<button class="button button-primary" type="submit" name="access" value="requested">Allow</button>
${changes ? html`<button class="button" type="submit" name="access" value="read">Allow read-only</button>` : ''}
<button class="button" type="submit" formaction="/interaction/${uid}/abort">Deny</button>
</form>`,
  });
}

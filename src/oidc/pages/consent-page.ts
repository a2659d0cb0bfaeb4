import type { Scope } from '../../domain/clients.ts';
import { SCOPE_CONSENT_TEXT } from '../../domain/scopes.ts';
import { html } from './html.ts';
import { layout } from './layout.ts';

export interface ConsentPageInput {
  uid: string;
  csrfToken: string;
  clientName: string;
  userName: string;
  account: string;
  scopes: Scope[];
}

export function renderConsentPage(input: ConsentPageInput): string {
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

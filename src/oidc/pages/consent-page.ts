import type { AssistantScope } from '../../domain/assistant-scopes.ts';
import type { Scope } from '../../domain/clients.ts';
import { formatNumber } from '../../i18n/format.ts';
import { html } from '../../pages/html.ts';
import { layout, markup, text, type PageLanguage } from '../../pages/layout.ts';

/** What an assistant (a native client asking for Sesame's own resources) asks to do for the person. */
export interface AssistantRequest {
  /** The assistant scopes this person can grant (sesame:admin only for an administrator). */
  scopes: AssistantScope[];
  /** How long the access lasts: until revoked (at most `days`), or `minutes` per sign-in. */
  duration: { offline: true; days: number } | { offline: false; minutes: number };
  /** Where the assistant comes from: the host of its metadata document's URL, or the project that registered it. */
  origin?: { documentHost: string } | { project: string } | undefined;
}

export interface ConsentPageInput {
  uid: string;
  csrfToken: string;
  clientName: string;
  userName: string;
  account: string;
  scopes: Scope[];
  assistant?: AssistantRequest | undefined;
  language: PageLanguage;
}

export function renderConsentPage(input: ConsentPageInput): string {
  return input.assistant ? renderAssistantConsent(input, input.assistant) : renderApplicationConsent(input);
}

function renderApplicationConsent(input: ConsentPageInput): string {
  const uid = encodeURIComponent(input.uid);
  const { language } = input;
  return layout({
    language,
    title: text(language, 'consent.title'),
    subtitle: markup(language, 'consent.subtitle', { client: html`<strong>${input.clientName}</strong>` }),
    body: html`
<ul class="plain-list">
${input.scopes.map((scope) => html`<li>${text(language, `scope.${scope}`)}</li>`)}
</ul>
<p class="muted small">${text(language, 'consent.signedInAs', { name: input.userName, account: input.account })}</p>
<form class="actions" method="post" action="/interaction/${uid}/confirm">
<input type="hidden" name="csrf" value="${input.csrfToken}">
<button class="button button-primary" type="submit">${text(language, 'consent.allow')}</button>
<button class="button" type="submit" formaction="/interaction/${uid}/abort">${text(language, 'consent.deny')}</button>
</form>`,
  });
}

function durationText(language: PageLanguage, duration: AssistantRequest['duration']): string {
  return duration.offline
    ? text(language, 'consent.assistant.offline', { days: formatNumber(language.locale, duration.days) })
    : text(language, 'consent.assistant.online', { minutes: formatNumber(language.locale, duration.minutes) });
}

function originText(language: PageLanguage, origin: AssistantRequest['origin']): string {
  if (!origin) return '';
  return 'documentHost' in origin
    ? text(language, 'consent.assistant.describedAt', { host: origin.documentHost })
    : text(language, 'consent.assistant.registeredIn', { project: origin.project });
}

/**
 * "Allow" grants everything asked; "Allow without administration" drops sesame:admin when it was asked;
 * "Allow read-only" is the person's opt-out of changes, offered whenever the assistant asked to change anything.
 */
function renderAssistantConsent(input: ConsentPageInput, assistant: AssistantRequest): string {
  const uid = encodeURIComponent(input.uid);
  const { language } = input;
  const changes = assistant.scopes.some((scope) => scope !== 'sesame:read');
  const administration = assistant.scopes.includes('sesame:admin');
  const origin = originText(language, assistant.origin);
  const otherScopes = input.scopes.filter((scope) => scope !== 'openid');
  return layout({
    language,
    title: text(language, 'consent.assistant.title'),
    subtitle: markup(language, changes ? 'consent.assistant.subtitleChanges' : 'consent.assistant.subtitleRead', { client: html`<strong>${input.clientName}</strong>` }),
    body: html`
<ul class="plain-list">
${assistant.scopes.map((scope) => html`<li>${text(language, `scope.${scope}`)}</li>`)}
${otherScopes.map((scope) => html`<li>${text(language, `scope.${scope}`)}</li>`)}
</ul>
${origin ? html`<p>${origin}</p>` : ''}
<p>${text(language, 'consent.assistant.bound')} ${durationText(language, assistant.duration)}</p>
<p class="muted small">${text(language, 'consent.assistant.signedInAs', { name: input.userName, account: input.account })}</p>
<form class="actions" method="post" action="/interaction/${uid}/confirm">
<input type="hidden" name="csrf" value="${input.csrfToken}">
<button class="button button-primary" type="submit" name="access" value="requested">${text(language, 'consent.allow')}</button>
${administration ? html`<button class="button" type="submit" name="access" value="without_admin">${text(language, 'consent.assistant.allowWithoutAdmin')}</button>` : ''}
${changes ? html`<button class="button" type="submit" name="access" value="read">${text(language, 'consent.assistant.allowReadOnly')}</button>` : ''}
<button class="button" type="submit" formaction="/interaction/${uid}/abort">${text(language, 'consent.deny')}</button>
</form>`,
  });
}

import { html } from '../../pages/html.ts';
import { layout, markup, text, type PageLanguage } from '../../pages/layout.ts';

export function renderLogoutPage(input: { action: string; xsrf: string; clientName?: string | undefined; language: PageLanguage }): string {
  const { language } = input;
  return layout({
    language,
    title: text(language, 'logout.title'),
    subtitle: input.clientName ? markup(language, 'logout.askedByClient', { client: html`<strong>${input.clientName}</strong>` }) : text(language, 'logout.asked'),
    body: html`
<form class="actions" method="post" action="${input.action}">
<input type="hidden" name="xsrf" value="${input.xsrf}">
<button class="button button-primary" type="submit" name="logout" value="yes" autofocus>${text(language, 'logout.submit')}</button>
<button class="button" type="submit">${text(language, 'logout.stay')}</button>
</form>`,
  });
}

export function renderLoggedOutPage(input: { clientName?: string | undefined; language: PageLanguage }): string {
  const { language } = input;
  return layout({
    language,
    title: text(language, 'logout.done.title'),
    body: html`<p>${input.clientName ? html`${markup(language, 'logout.done.client', { client: html`<strong>${input.clientName}</strong>` })} ` : ''}${text(language, 'logout.done.close')}</p>`,
  });
}

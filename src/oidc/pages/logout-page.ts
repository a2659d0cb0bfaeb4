import { html } from './html.ts';
import { layout } from './layout.ts';

export function renderLogoutPage(input: { action: string; xsrf: string; clientName?: string | undefined }): string {
  return layout({
    title: 'Sign out?',
    subtitle: input.clientName ? html`<strong>${input.clientName}</strong> asks to sign you out of Sesame.` : 'You asked to sign out of Sesame.',
    body: html`
<form class="actions" method="post" action="${input.action}">
<input type="hidden" name="xsrf" value="${input.xsrf}">
<button class="button button-primary" type="submit" name="logout" value="yes" autofocus>Sign out</button>
<button class="button" type="submit">Stay signed in</button>
</form>`,
  });
}

export function renderLoggedOutPage(input: { clientName?: string | undefined }): string {
  return layout({
    title: 'You are signed out',
    body: html`<p>${input.clientName ? html`You signed out of <strong>${input.clientName}</strong>. ` : ''}You can close this window now.</p>`,
  });
}

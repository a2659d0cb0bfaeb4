import { html } from './html.ts';
import { layout } from './layout.ts';

export interface ErrorPageInput {
  title: string;
  message: string;
  /** The protocol error, shown folded away for the application's developer. */
  error?: string | undefined;
  description?: string | undefined;
}

export function renderErrorPage(input: ErrorPageInput): string {
  return layout({
    title: input.title,
    body: html`
<div class="alert alert-error" role="alert">${input.message}</div>
${input.error
  ? html`<details>
<summary>Details for the application's developer</summary>
<dl>
<dt>error</dt><dd><code>${input.error}</code></dd>
${input.description ? html`<dt>error_description</dt><dd><code>${input.description}</code></dd>` : ''}
</dl>
</details>`
  : ''}`,
  });
}

/** What a person reads for a protocol error they cannot fix themselves. */
export function explainProtocolError(error: string, description: string | undefined): ErrorPageInput {
  const text = description ?? '';
  let message = 'The application’s sign-in request could not be completed. Go back to the application and try again.';
  if (/post_logout_redirect_uri/.test(text)) {
    message = 'The application asked Sesame to send you to an address it has not registered after signing out. You are still signed in.';
  } else if (/redirect_uri/.test(text)) {
    message = 'The application asked Sesame to send you to an address it has not registered, so Sesame stopped here. Tell the application’s developers.';
  } else if (error === 'invalid_client') {
    message = 'This application is unknown to Sesame or is not allowed to sign people in at the moment.';
  } else if (error === 'session_not_found' || error === 'invalid_session') {
    message = 'This sign-in page has expired. Go back to the application and sign in again.';
  } else if (error === 'server_error') {
    message = 'Something went wrong on Sesame’s side. Try again in a moment.';
  } else if (error === 'temporarily_unavailable') {
    message = 'Sesame cannot sign you in right now. Wait a few seconds, then try again.';
  }
  const title = error === 'server_error' ? 'Something went wrong' : error === 'temporarily_unavailable' ? 'Briefly unavailable' : 'Sign-in stopped';
  return { title, message, error, description };
}

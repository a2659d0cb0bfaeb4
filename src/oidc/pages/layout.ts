import { html, type SafeHtml } from './html.ts';

/** The rules only these pages need, served by the OIDC mount. */
export const STYLESHEET_PATH = '/assets/sesame.css';
/**
 * In cascade order: the console's design tokens and base rules (served from web/theme whether or not
 * the console is built), then the pages' own rules. One look for pages and console.
 */
export const PAGE_STYLESHEETS = ['/console/theme/tokens.css', '/console/theme/base.css', STYLESHEET_PATH] as const;
export const FAVICON_PATH = '/console/theme/favicon.svg';

/**
 * The frame every server-rendered page shares: same-origin stylesheets, and same-origin scripts only
 * where a page has passkey buttons (`scripts`; the page works without them).
 */
export function layout(options: { title: string; body: SafeHtml; subtitle?: SafeHtml | string | undefined; scripts?: readonly string[] | undefined }): string {
  return `<!doctype html>${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${options.title} · Sesame</title>
<link rel="icon" type="image/svg+xml" href="${FAVICON_PATH}">
${PAGE_STYLESHEETS.map((href) => html`<link rel="stylesheet" href="${href}">`)}
${(options.scripts ?? []).map((src) => html`<script src="${src}" defer></script>`)}
</head>
<body class="auth-page">
<main class="auth-card" aria-labelledby="page-title">
<p class="auth-brand" aria-hidden="true">Sesame</p>
<h1 id="page-title">${options.title}</h1>
${options.subtitle ? html`<p class="subtitle">${options.subtitle}</p>` : ''}
${options.body}
</main>
</body>
</html>
`.value}`;
}

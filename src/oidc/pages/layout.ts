import { html, type SafeHtml } from './html.ts';

export const STYLESHEET_PATH = '/assets/sesame.css';

/** The frame every server-rendered page shares: no scripts, one same-origin stylesheet. */
export function layout(options: { title: string; body: SafeHtml; subtitle?: SafeHtml | string | undefined }): string {
  return `<!doctype html>${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${options.title} · Sesame</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}">
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

import { LOCALE_NAMES, t, type MessageKey, type MessageParams } from '../i18n/catalogues.ts';
import { LOCALES, type Locale } from '../i18n/locales.ts';
import { html, htmlText, type SafeHtml } from './html.ts';

/** The rules only these pages need, served by the OIDC mount. */
export const STYLESHEET_PATH = '/assets/sesame.css';
/**
 * In cascade order: the console's design tokens and base rules (served from web/theme whether or not
 * the console is built), then the pages' own rules. One look for pages and console.
 */
export const PAGE_STYLESHEETS = ['/console/theme/tokens.css', '/console/theme/base.css', STYLESHEET_PATH] as const;
export const FAVICON_PATH = '/console/theme/favicon.svg';

/** The language a page is written in, and where its language switcher points (none without a `selfPath`). */
export interface PageLanguage {
  locale: Locale;
  /** The page's own GET address (path and query, without `lang`); the switcher adds `lang=`. */
  selfPath?: string | undefined;
}

export const ENGLISH: PageLanguage = { locale: 'en' };

/** The page's text for `key`, plain (the `html` tag escapes it). */
export const text = (language: PageLanguage, key: MessageKey, params?: MessageParams): string => t(language.locale, key, params);

/** The page's text for `key` as markup, placeholders filled with (escaped or safe) values. */
export const markup = (language: PageLanguage, key: MessageKey, params: Record<string, unknown> = {}): SafeHtml => htmlText(t(language.locale, key), params);

function switcherHref(selfPath: string, locale: Locale): string {
  return `${selfPath}${selfPath.includes('?') ? '&' : '?'}lang=${encodeURIComponent(locale)}`;
}

/** Plain links, so it works without script and from the keyboard; each name is in its own language. */
function languageSwitcher(language: PageLanguage): SafeHtml | '' {
  const { selfPath } = language;
  if (selfPath === undefined) return '';
  return html`<nav class="language-switcher" aria-label="${text(language, 'page.languageSwitcher')}">
<ul>
${LOCALES.map((locale) => html`<li><a href="${switcherHref(selfPath, locale)}" lang="${locale}" hreflang="${locale}"${locale === language.locale ? html` aria-current="true"` : ''}>${LOCALE_NAMES[locale]}</a></li>`)}
</ul>
</nav>`;
}

/**
 * The frame every server-rendered page shares: same-origin stylesheets, and same-origin scripts only
 * where a page has passkey buttons (`scripts`; the page works without them).
 */
export function layout(options: { title: string; body: SafeHtml; subtitle?: SafeHtml | string | undefined; language: PageLanguage; scripts?: readonly string[] | undefined }): string {
  return `<!doctype html>${html`<html lang="${options.language.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${options.title === 'Sesame' ? options.title : `${options.title} · Sesame`}</title>
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
${languageSwitcher(options.language)}
</main>
</body>
</html>
`.value}`;
}

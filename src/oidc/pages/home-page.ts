import { html } from '../../pages/html.ts';
import { layout, text, type PageLanguage } from '../../pages/layout.ts';

/** What this instance serves; a surface that is switched off has no link. */
export interface HomeLinks {
  agentApi: boolean;
  mcp: boolean;
}

/** `GET /`: where a person or a developer goes from here. */
export function renderHomePage(language: PageLanguage, links: HomeLinks): string {
  const items = [
    html`<li><a href="/console">${text(language, 'home.console')}</a></li>`,
    html`<li><a href="/.well-known/openid-configuration">${text(language, 'home.discovery')}</a></li>`,
    links.agentApi ? html`<li><a href="/api/agent/instructions">${text(language, 'home.agentGuide')}</a></li>` : '',
    links.mcp ? html`<li><a href="/.well-known/oauth-protected-resource/mcp">${text(language, 'home.mcp')}</a></li>` : '',
  ];
  return layout({
    language,
    title: text(language, 'home.title'),
    subtitle: text(language, 'home.subtitle'),
    body: html`<nav aria-label="${text(language, 'home.linksLabel')}"><ul class="home-links">${items}</ul></nav>`,
  });
}

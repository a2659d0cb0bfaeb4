import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { pageLanguage, rememberLanguageChoice } from '../pages/page-language.ts';
import { renderHomePage } from './pages/home-page.ts';

/** `GET /`: an HTML page in the visitor's language, linking to the surfaces this instance mounts. */
export async function homeRoute(app: FastifyInstance, options: { config: Config }): Promise<void> {
  const links = { agentApi: options.config.agentApiEnabled, mcp: options.config.mcpEnabled };
  const secure = new URL(options.config.issuer).protocol === 'https:';
  app.get('/', async (request, reply) => {
    rememberLanguageChoice(request, reply.raw, secure);
    const language = pageLanguage(request);
    return reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').header('content-language', language.locale).send(renderHomePage(language, links));
  });
}

import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from 'oidc-provider';
import type { MessageKey } from '../i18n/catalogues.ts';
import { FederatedSignInRefused } from '../services/upstream/federated-person.ts';
import { rewriteForwardedHeaders } from './forwarded-headers.ts';
import { interactionCsrfValid } from './interaction-csrf.ts';
import type { LiveProvider } from './live-provider.ts';
import { pageLanguage } from '../pages/page-language.ts';
import { pageSecurityHeaders } from '../pages/page-security.ts';
import { renderErrorPage } from '../pages/error-page.ts';
import { text } from '../pages/layout.ts';
import { interactionTicket, TICKET_PURPOSES } from './second-step-ticket.ts';
import { signInRefusalText } from './sign-in-refusal.ts';
import type { OidcDeps } from './provider.ts';
import { UpstreamSignInStopped } from '../services/upstream/oidc-upstream-sign-in.ts';
/** How long the way from the upstream's answer back to the interaction stays open. */
const UPSTREAM_RETURN_SECONDS = 120;

type Params = { uid: string; name: string };

type Stop = { title: MessageKey; message: MessageKey } | { title: MessageKey; refusal: UpstreamSignInStopped | FederatedSignInRefused };

const STOPS = {
  formNotOurs: { title: 'error.title.stopped', message: 'error.csrf' },
  notLoginStep: { title: 'error.title.stopped', message: 'error.wrongStep' },
  unknownState: { title: 'upstream.refusedTitle', message: 'upstream.unknownState' },
} as const satisfies Record<string, Stop>;

/** Ends the sign-in on an error page in the person's language. */
function stop(request: FastifyRequest, reply: FastifyReply, status: number, why: Stop): FastifyReply {
  const language = pageLanguage(request);
  const message = 'refusal' in why ? signInRefusalText(language, why.refusal) : text(language, why.message);
  return reply.status(status).headers(pageSecurityHeaders()).send(renderErrorPage({ title: text(language, why.title), message, language }));
}

/**
 * Sign-in through an upstream OpenID Connect provider: the login page's "Continue with" form posts to
 * `/interaction/{uid}/upstream/{name}`, which sends the browser to the upstream with code + PKCE + state
 * + nonce; the upstream returns it to `{issuer}/upstream/{name}/callback`, where the answer is verified,
 * the person found, linked or created (federated sign-in), and the interaction finished. Anything refused
 * ends on a 403 page here: the relying party gets no code.
 *
 * The console starts the same flow with `POST /api/management/auth/upstream/{name}`; its answer comes back
 * to the same callback, which holds the sign-in for the browser that started it and returns it to the
 * console's sign-in page, where `POST /auth/upstream/finish` (with a one-time code if the person has a
 * second factor) starts the console session.
 */
export async function upstreamRoutes(app: FastifyInstance, options: { live: LiveProvider; deps: OidcDeps; issuer: URL }): Promise<void> {
  const { live, deps } = options;
  const cookieKeys = deps.instanceSecrets.cookieKeys;
  const upstreamSignIns = deps.services.upstreamSignIns;
  await app.register(formbody);
  app.addHook('onRequest', async (request) => rewriteForwardedHeaders(request, options.issuer));

  app.post<{ Params: Params }>('/interaction/:uid/upstream/:name', async (request, reply) => {
    let interaction;
    try {
      interaction = await live.current().interactionDetails(request.raw, reply.raw);
    } catch (error) {
      if (!(error instanceof errors.SessionNotFound)) throw error;
    }
    if (!interaction || interaction.uid !== request.params.uid) return stop(request, reply, 400, { title: 'error.title.stopped', message: 'error.sessionExpired' });
    if (!interactionCsrfValid(cookieKeys, interaction.uid, (request.body as Record<string, unknown> | undefined)?.csrf)) return stop(request, reply, 403, STOPS.formNotOurs);
    if (interaction.prompt.name !== 'login') return stop(request, reply, 400, STOPS.notLoginStep);
    try {
      const { url } = await upstreamSignIns.start(request.params.name, { interaction: interaction.uid });
      return reply.header('cache-control', 'no-store').redirect(url, 303);
    } catch (error) {
      if (error instanceof UpstreamSignInStopped) return stop(request, reply, 403, { title: 'upstream.refusedTitle', refusal: error });
      throw error;
    }
  });

  app.get<{ Params: { name: string }; Querystring: Record<string, string> }>('/upstream/:name/callback', async (request, reply) => {
    const query = new URLSearchParams(request.raw.url?.split('?')[1] ?? '');
    const pending = await upstreamSignIns.take(query.get('state') ?? '', request.params.name);
    if (!pending) return stop(request, reply, 403, STOPS.unknownState);
    const { purpose } = pending;
    const interaction = 'console' in purpose ? null : await live.current().Interaction.find(purpose.interaction);
    if (!('console' in purpose) && (!interaction || interaction.prompt.name !== 'login' || interaction.result)) return stop(request, reply, 403, STOPS.notLoginStep);

    let user;
    try {
      const upstream = await upstreamSignIns.complete(pending, query);
      ({ user } = await deps.services.federatedSignIn.signIn({ providerName: upstream.provider.name, issuer: upstream.issuer, subject: upstream.subject, attributes: upstream.attributes, ip: request.ip }));
    } catch (error) {
      if (error instanceof UpstreamSignInStopped || error instanceof FederatedSignInRefused) return stop(request, reply, 403, { title: 'upstream.refusedTitle', refusal: error });
      throw error;
    }
    if ('console' in purpose) {
      // Held for the browser that started it (its login-CSRF cookie): a callback address sent to someone else signs them in as nobody.
      await upstreamSignIns.holdForConsole(purpose.console.browser, user.subjectId, pending.provider);
      return reply.header('cache-control', 'no-store').redirect(`/console/sign-in?upstream=${encodeURIComponent(pending.provider)}&next=${encodeURIComponent(purpose.console.next)}`, 303);
    }
    if (!interaction) return stop(request, reply, 403, STOPS.notLoginStep);
    // What the sign-in still owes (a second factor, enrolment, or nothing) is decided at the interaction's own
    // address (interactions.ts), where the browser sends its interaction cookie: only the browser that started
    // this sign-in continues it. The ticket says who the upstream signed in, for this interaction, for a few minutes.
    const ticket = interactionTicket(cookieKeys, TICKET_PURPOSES.upstreamSignedIn, interaction.uid, user.subjectId, deps.clock.now(), UPSTREAM_RETURN_SECONDS);
    return reply.header('cache-control', 'no-store').redirect(`/interaction/${encodeURIComponent(interaction.uid)}/upstream-signed-in?ticket=${encodeURIComponent(ticket)}`, 303);
  });
}

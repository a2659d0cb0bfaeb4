import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors, type Client } from 'oidc-provider';
import { SCOPES, type Scope } from '../domain/clients.ts';
import { AppError } from '../errors.ts';
import { createDeviceCookie } from '../security/device-cookie.ts';
import { FederatedSignInRefused } from '../services/upstream/federated-person.ts';
import { rewriteForwardedHeaders } from './forwarded-headers.ts';
import type { LiveProvider } from './live-provider.ts';
import { interactionCsrfToken, interactionCsrfValid } from './interaction-csrf.ts';
import { pageSecurityHeaders } from '../pages/page-security.ts';
import { assistantConsentRequest, grantAssistantScopes, parseAccessChoice } from './assistant-consent.ts';
import { isMetadataDocumentClientId, metadataDocumentHost } from './assistant-metadata-documents.ts';
import { assistantStaysConnected } from './assistant-resources.ts';
import type { SesameClientFields } from './client-metadata.ts';
import { renderConsentPage } from './pages/consent-page.ts';
import { errorPageText, explainProtocolError, renderErrorPage } from '../pages/error-page.ts';
import type { PageLanguage } from '../pages/layout.ts';
import { pageLanguage, rememberLanguageChoice } from '../pages/page-language.ts';
import { renderLoginPage } from './pages/login-page.ts';
import { auditPageSignIn } from './page-sign-in-audit.ts';
import { renderOneTimeCodePage } from './pages/one-time-code-page.ts';
import type { OidcDeps } from './provider.ts';
import { rememberConsent } from './remembered-consent.ts';
import { interactionTicketSubject, secondStepSubject, secondStepTicket, TICKET_PURPOSES } from './second-step-ticket.ts';
import { firstProofOf, type SignInProof } from '../domain/sign-in-decision.ts';
import type { SignIn, User } from '../services/people/users.ts';
import { signInRefusalText } from './sign-in-refusal.ts';
import { enrolmentRoutes } from './enrolment-routes.ts';
import { formField as field, type FormBody, type Interaction, type InteractionResults, type Params } from './interaction-kit.ts';
import { passkeyRoutes } from './passkey-routes.ts';
import { asksForMfa, MFA_STEP_UP_REASON } from './step-up.ts';


function sendPage(reply: FastifyReply, status: number, page: string, formTargets: (string | undefined)[] = []): FastifyReply {
  // Pages with passkey buttons load our own scripts (never inline ones); the others run none.
  return reply.status(status).headers(pageSecurityHeaders(formTargets, { scripts: page.includes('<script src="/assets/') })).send(page);
}


/**
 * The login, consent and cancel steps of oidc-provider's interactions, as Fastify routes. Each
 * step loads the interaction bound to the browser's signed cookie, checks the form's CSRF token,
 * and hands its result back to oidc-provider, which continues at /auth/:uid.
 */
export async function interactionRoutes(app: FastifyInstance, options: { live: LiveProvider; deps: OidcDeps; issuer: URL }): Promise<void> {
  const { live, deps } = options;
  const cookieKeys = deps.instanceSecrets.cookieKeys;
  const device = createDeviceCookie({ issuer: options.issuer.href, cookieKeys });
  await app.register(formbody);
  // interactionDetails and interactionResult read the raw request through oidc-provider's Koa.
  app.addHook('onRequest', async (request) => rewriteForwardedHeaders(request, options.issuer));

  async function load(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): Promise<Interaction | null> {
    try {
      const interaction = await live.current().interactionDetails(request.raw, reply.raw);
      if (interaction.uid === request.params.uid) return interaction;
    } catch (error) {
      if (!(error instanceof errors.SessionNotFound)) throw error;
    }
    sendPage(reply, 400, renderErrorPage(explainProtocolError('session_not_found', undefined, pageLanguage(request))));
    return null;
  }

  function csrfRejected(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): boolean {
    if (interactionCsrfValid(cookieKeys, request.params.uid, (request.body as FormBody)?.csrf)) return false;
    sendPage(reply, 403, renderErrorPage(errorPageText(pageLanguage(request), 'error.csrf')));
    return true;
  }

  function wrongStep(reply: FastifyReply, language: PageLanguage): FastifyReply {
    return sendPage(reply, 400, renderErrorPage(errorPageText(language, 'error.wrongStep')));
  }

  /**
   * The language of a step's page (see page-language.ts): `saved` is the person's preference when the
   * step knows them. A POST's page switches language through the step's GET page.
   */
  function languageOf(request: FastifyRequest<{ Params: Params }>, interaction: Interaction, saved?: string | null): PageLanguage {
    const selfPath = request.method === 'GET' ? undefined : `/interaction/${encodeURIComponent(interaction.uid)}`;
    return pageLanguage(request, { uiLocales: interaction.params.ui_locales, saved, selfPath });
  }

  async function clientName(interaction: Interaction): Promise<string | null> {
    const client = await live.current().Client.find(String(interaction.params.client_id));
    return client ? (client.clientName ?? client.clientId) : null;
  }

  /**
   * Stores the result on the interaction this request has read (what oidc-provider's interactionResult does,
   * without reading it again) and sends the browser back to /auth.
   */
  async function finish(request: FastifyRequest, reply: FastifyReply, interaction: Interaction, result: InteractionResults, merge: boolean) {
    interaction.result = merge && !('error' in result) ? { ...interaction.lastSubmission, ...result } : result;
    await interaction.save(interaction.exp - Math.floor(Date.now() / 1000));
    if (result.login) await auditPageSignIn(deps.services, request, result.login, interaction.params.client_id);
    return reply.header('cache-control', 'no-store').redirect(interaction.returnTo, 303);
  }

  function requestedScopes(interaction: Interaction): Scope[] {
    const requested = String(interaction.params.scope ?? '').split(' ');
    return SCOPES.filter((scope) => requested.includes(scope));
  }

  async function showConsent(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply, interaction: Interaction, name: string): Promise<FastifyReply> {
    const user = await deps.services.users.getUser(interaction.session?.accountId ?? '');
    if (!user) return wrongStep(reply, languageOf(request, interaction));
    const client = await live.current().Client.find(String(interaction.params.client_id));
    const assistant = assistantConsentRequest(interaction, user, client ? assistantStaysConnected(client, { resource: interaction.params.resource }) : false);
    if (assistant && client) assistant.origin = await assistantOrigin(client.clientId);
    return sendPage(reply, 200, renderConsentPage({
      language: languageOf(request, interaction, user.locale),
      uid: interaction.uid,
      csrfToken: interactionCsrfToken(cookieKeys, interaction.uid),
      clientName: name,
      userName: user.displayName,
      account: user.account,
      scopes: requestedScopes(interaction),
      assistant,
    }), [interaction.params.redirect_uri as string]);
  }

  /** Where an assistant comes from, for its consent page: the host of its metadata document, or its project. */
  async function assistantOrigin(clientId: string): Promise<{ documentHost: string } | { project: string } | undefined> {
    if (isMetadataDocumentClientId(clientId)) return { documentHost: metadataDocumentHost(clientId) };
    const found = await live.store.repos.clients.findForProtocol(clientId);
    const project = found ? await live.store.repos.projects.find(found.client.projectId) : undefined;
    return project ? { project: project.name } : undefined;
  }

  app.get<{ Params: Params }>('/interaction/:uid', async (request, reply) => {
    const interaction = await load(request, reply);
    if (!interaction) return reply;
    rememberLanguageChoice(request, reply.raw, options.issuer.protocol === 'https:');
    const language = languageOf(request, interaction);
    const name = await clientName(interaction);
    if (name === null) return sendPage(reply, 400, renderErrorPage(explainProtocolError('invalid_client', undefined, language)));
    if (interaction.prompt.name === 'login' && interaction.session && interaction.prompt.reasons.length > 0 && interaction.prompt.reasons.every((reason) => reason === MFA_STEP_UP_REASON)) {
      return stepUp(request, reply, interaction, interaction.session.accountId);
    }
    if (interaction.prompt.name === 'login') {
      const upstream = await deps.services.upstreamSignIns.choices();
      return sendPage(reply, 200, renderLoginPage({ uid: interaction.uid, csrfToken: interactionCsrfToken(cookieKeys, interaction.uid), clientName: name, language, upstreamProviders: upstream.choices }), [
        interaction.params.redirect_uri as string,
        ...upstream.formTargets,
      ]);
    }
    if (interaction.prompt.name === 'consent') return showConsent(request, reply, interaction, name);
    return wrongStep(reply, language);
  });

  app.post<{ Params: Params }>('/interaction/:uid/login', async (request, reply) => {
    const interaction = await load(request, reply);
    if (!interaction || csrfRejected(request, reply)) return reply;
    if (interaction.prompt.name !== 'login') return wrongStep(reply, languageOf(request, interaction));
    const language = languageOf(request, interaction);
    const body = request.body as FormBody;
    const account = field(body, 'account').trim();
    // A disabled account is refused exactly like a wrong password: the sign-in is null for both.
    let signIn: SignIn | null = null;
    try {
      const deviceSubject = device.subjectOf(request.headers.cookie);
      signIn = account ? await deps.services.users.signInWithPassword(account, field(body, 'password'), { ip: request.ip, surface: 'login_page', deviceSubject, clientWantsMfa: asksForMfa(interaction.params) }) : null;
    } catch (error) {
      if (!(error instanceof AppError) || !['rate_limited', 'directory_unavailable', 'forbidden'].includes(error.code)) throw error;
      const retryAfterSeconds = error.retryAfterSeconds ?? 60;
      // forbidden: a directory person Sesame cannot link or create (the message says why and whom to ask).
      const refusal = error instanceof FederatedSignInRefused ? signInRefusalText(language, error) : error.message;
      const problem = error.code === 'rate_limited' ? { retryAfterSeconds } : error.code === 'directory_unavailable' ? { directoryRetryAfterSeconds: retryAfterSeconds } : { refusal };
      if (error.code === 'directory_unavailable') request.log.warn({ err: error }, 'directory unavailable');
      if (error.code !== 'forbidden') reply.header('retry-after', String(retryAfterSeconds));
      const upstream = await deps.services.upstreamSignIns.choices();
      const page = renderLoginPage({ uid: interaction.uid, csrfToken: interactionCsrfToken(cookieKeys, interaction.uid), clientName: (await clientName(interaction)) ?? '', account, ...problem, language, upstreamProviders: upstream.choices });
      return sendPage(reply, error.status, page, [interaction.params.redirect_uri as string, ...upstream.formTargets]);
    }
    if (!signIn) {
      const name = (await clientName(interaction)) ?? '';
      const upstream = await deps.services.upstreamSignIns.choices();
      return sendPage(reply, 401, renderLoginPage({
        uid: interaction.uid,
        csrfToken: interactionCsrfToken(cookieKeys, interaction.uid),
        clientName: name,
        account,
        failed: true,
        language,
        upstreamProviders: upstream.choices,
      }), [interaction.params.redirect_uri as string, ...upstream.formTargets]);
    }
    return continueSignIn(request, reply, interaction, signIn);
  });

  /**
   * Acts on the sign-in decision (src/domain/sign-in-decision.ts), the same for every way in: done finishes
   * the interaction with the decision's amr/acr; a second factor owed shows the one-time-code page (with the
   * passkey button for a person who has one); enrolment owed shows the enrolment page. No code before.
   */
  async function continueSignIn(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply, interaction: Interaction, { user, decision }: SignIn): Promise<FastifyReply> {
    if (decision.outcome === 'second_factor') {
      return showOneTimeCodePage(request, reply, interaction, secondStepTicket(cookieKeys, interaction.uid, user.subjectId, decision.first, deps.clock.now()), 200, {}, user.locale);
    }
    if (decision.outcome === 'enrol') return enrolment.showEnrolment(request, reply, interaction, user, {}, decision.first);
    rememberDevice(reply, user.subjectId);
    return finish(request, reply, interaction, { login: { accountId: user.subjectId, amr: decision.amr, acr: decision.acr } }, false);
  }

  /** Asks the sign-in decision for a person whose proofs so far are `proof`, and acts on it. */
  async function decideAndContinue(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply, interaction: Interaction, user: User, proof: SignInProof): Promise<FastifyReply> {
    const decision = await deps.services.signInDecision.decide(user, proof, { clientWantsMfa: asksForMfa(interaction.params) });
    return continueSignIn(request, reply, interaction, { user, decision });
  }

  /** After a correct sign-in: this browser is one its person used (the sign-in limits spare it later). */
  function rememberDevice(reply: FastifyReply, subjectId: string): void {
    // Set on the raw response: oidc-provider writes its own cookies there, and Fastify's headers would replace them.
    const setCookies = reply.raw.getHeader('set-cookie');
    reply.raw.setHeader('set-cookie', [...(Array.isArray(setCookies) ? setCookies : setCookies === undefined ? [] : [String(setCookies)]), device.issue(subjectId)]);
  }

  /** The person's saved language, for a page of the second step shown again. */
  const savedLocaleOf = async (subjectId: string) => (await deps.services.users.getUser(subjectId))?.locale;

  async function showOneTimeCodePage(
    request: FastifyRequest<{ Params: Params }>,
    reply: FastifyReply,
    interaction: Interaction,
    ticket: string,
    status: number,
    problem: { failed?: boolean; retryAfterSeconds?: number; passkeyFailed?: boolean } = {},
    saved?: string | null,
  ) {
    // No switcher here: switching goes through the step's GET page, which would start again at the password.
    const language = { ...languageOf(request, interaction, saved), selfPath: undefined };
    const step = secondStepSubject(cookieKeys, interaction.uid, ticket, deps.clock.now());
    const passkey = step ? await deps.services.passkeys.hasPasskey(step.subjectId) : false;
    const page = renderOneTimeCodePage({ uid: interaction.uid, csrfToken: interactionCsrfToken(cookieKeys, interaction.uid), ticket, clientName: (await clientName(interaction)) ?? '', passkey, ...problem, language });
    return sendPage(reply, status, page, [interaction.params.redirect_uri as string]);
  }

  const kit = { deps, cookieKeys, load, csrfRejected, wrongStep, languageOf, savedLocaleOf, clientName, rememberDevice, sendPage, showOneTimeCodePage, continueSignIn, decideAndContinue };
  const enrolment = enrolmentRoutes(app, kit);
  passkeyRoutes(app, kit);

  /** A live session whose sign-in was one factor, and an application asking for mfa: only the second factor is asked (or enrolled). */
  async function stepUp(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply, interaction: Interaction, subjectId: string) {
    const user = await deps.services.users.getUser(subjectId);
    if (!user || user.status !== 'active') return wrongStep(reply, languageOf(request, interaction));
    return decideAndContinue(request, reply, interaction, user, { first: firstProofOf(interaction.session?.amr) });
  }

  // An upstream sign-in (upstream-routes.ts) comes back here, to the interaction's own address where the browser
  // sends its interaction cookie, with a ticket naming the person the upstream signed in, for this interaction.
  app.get<{ Params: Params; Querystring: { ticket?: string } }>('/interaction/:uid/upstream-signed-in', async (request, reply) => {
    const interaction = await load(request, reply);
    if (!interaction) return reply;
    if (interaction.prompt.name !== 'login') return wrongStep(reply, languageOf(request, interaction));
    const subjectId = interactionTicketSubject(cookieKeys, TICKET_PURPOSES.upstreamSignedIn, interaction.uid, String(request.query.ticket ?? ''), deps.clock.now());
    const user = subjectId ? await deps.services.users.getUser(subjectId) : null;
    if (!user || user.status !== 'active') return wrongStep(reply, languageOf(request, interaction));
    return decideAndContinue(request, reply, interaction, user, { first: 'fed' });
  });

  // The second step for a person with an authenticator: the ticket stands for the password checked a moment ago.
  app.post<{ Params: Params }>('/interaction/:uid/otp', async (request, reply) => {
    const interaction = await load(request, reply);
    if (!interaction || csrfRejected(request, reply)) return reply;
    if (interaction.prompt.name !== 'login') return wrongStep(reply, languageOf(request, interaction));
    const body = request.body as FormBody;
    const ticket = field(body, 'ticket');
    const step = secondStepSubject(cookieKeys, interaction.uid, ticket, deps.clock.now());
    if (!step) {
      const page = renderLoginPage({ uid: interaction.uid, csrfToken: interactionCsrfToken(cookieKeys, interaction.uid), clientName: (await clientName(interaction)) ?? '', language: languageOf(request, interaction) });
      return sendPage(reply, 400, page, [interaction.params.redirect_uri as string]);
    }
    let signIn: SignIn | null;
    try {
      signIn = await deps.services.users.signInSecondStep(step.subjectId, field(body, 'otp'), { ip: request.ip, surface: 'login_page' }, step.first);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'rate_limited') throw error;
      const retryAfterSeconds = error.retryAfterSeconds ?? 60;
      return showOneTimeCodePage(request, reply.header('retry-after', String(retryAfterSeconds)), interaction, ticket, 429, { retryAfterSeconds }, await savedLocaleOf(step.subjectId));
    }
    if (!signIn) return showOneTimeCodePage(request, reply, interaction, ticket, 401, { failed: true }, await savedLocaleOf(step.subjectId));
    return continueSignIn(request, reply, interaction, signIn);
  });

  app.post<{ Params: Params }>('/interaction/:uid/confirm', async (request, reply) => {
    const interaction = await load(request, reply);
    if (!interaction || csrfRejected(request, reply)) return reply;
    if (interaction.prompt.name !== 'consent' || !interaction.session) return wrongStep(reply, languageOf(request, interaction));
    const provider = live.current();
    const accountId = interaction.session.accountId;
    const clientId = String(interaction.params.client_id);
    const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
    const grant = existing ?? new provider.Grant({ accountId, clientId });
    // An assistant connected for the first time (not a second sign-in of one already connected) is worth a mail to its person.
    const client = await provider.Client.find(clientId);
    const isAssistant = (client as (Client & SesameClientFields) | undefined)?.sesame_client_type === 'native';
    const newAssistant = !existing && isAssistant && !(await deps.services.assistantGrants.isConnected(accountId, clientId));
    const details = interaction.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
    if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
    const user = await deps.services.users.getUser(accountId);
    const widened = grantAssistantScopes(grant, interaction, { isAdmin: user?.isAdmin ?? false, access: parseAccessChoice(field(request.body as FormBody, 'access')) });
    const grantId = await grant.save();
    await rememberConsent(live.store, deps.clock, accountId, clientId, grant.getOIDCScope().split(' ').filter(Boolean));
    if (isAssistant && client) {
      const resources = Object.keys(grant.resources ?? {});
      await deps.services.assistantGrants.recordConsent({
        subjectId: accountId,
        clientId,
        clientName: client.clientName ?? clientId,
        grantId,
        documentName: isMetadataDocumentClientId(clientId),
        widened,
        scopes: [...new Set(resources.flatMap((resource) => grant.getResourceScope(resource).split(' ')).filter(Boolean))],
        surface: resources.some((resource) => resource.endsWith('/mcp')) ? 'mcp' : 'agent',
        ip: request.ip,
      });
    }
    if (newAssistant) await deps.services.securityNotices.notify(accountId, 'assistant_connected');
    return finish(request, reply, interaction, { consent: existing ? {} : { grantId } }, true);
  });

  app.post<{ Params: Params }>('/interaction/:uid/abort', async (request, reply) => {
    const interaction = await load(request, reply);
    if (!interaction || csrfRejected(request, reply)) return reply;
    return finish(request, reply, interaction, { error: 'access_denied', error_description: 'The user did not allow the application to sign in.' }, false);
  });
}

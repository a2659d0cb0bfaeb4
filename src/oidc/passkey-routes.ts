import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import { interactionCsrfToken } from './interaction-csrf.ts';
import { formField, formTargetsOf, type FormBody, type Interaction, type InteractionKit, type Params } from './interaction-kit.ts';
import { renderLoginPage } from './pages/login-page.ts';
import { secondStepSubject } from './second-step-ticket.ts';

// The browser half of WebAuthn, served from this origin (the pages' CSP allows scripts from 'self' only):
// @simplewebauthn/browser's self-contained UMD build, which defines window.SimpleWebAuthnBrowser.
const browserPackage = dirname(createRequire(import.meta.url).resolve('@simplewebauthn/browser'));
const SCRIPTS: Record<string, string> = {
  '/assets/simplewebauthn-browser.js': readFileSync(join(browserPackage, '..', 'dist', 'bundle', 'index.umd.min.js'), 'utf8'),
  '/assets/passkey.js': readFileSync(new URL('./pages/passkey.js', import.meta.url), 'utf8'),
};

function parseCredential(body: FormBody): unknown {
  try {
    return JSON.parse(formField(body, 'credential')) as unknown;
  } catch {
    return null;
  }
}

/**
 * Signing in with a passkey: alone from the login page (a discoverable credential, no account typed),
 * or as the second step after the password (the step's ticket names the person). The page's script asks
 * `/passkey/options` for a challenge bound to this interaction, and posts the browser's answer as a form.
 */
export function passkeyRoutes(app: FastifyInstance, kit: InteractionKit): void {
  const { deps, cookieKeys } = kit;

  for (const [path, source] of Object.entries(SCRIPTS)) {
    app.get(path, async (_request, reply) =>
      reply.header('content-type', 'text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').header('x-content-type-options', 'nosniff').send(source),
    );
  }

  async function loginPage(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply, interaction: Interaction, status: number, problem: { passkeyProblem?: 'failed' | 'not_verified'; retryAfterSeconds?: number }) {
    const page = renderLoginPage({ uid: interaction.uid, csrfToken: interactionCsrfToken(cookieKeys, interaction.uid), clientName: (await kit.clientName(interaction)) ?? '', ...problem, language: kit.languageOf(request, interaction) });
    return kit.sendPage(reply, status, page, formTargetsOf(interaction));
  }

  app.post<{ Params: Params }>('/interaction/:uid/passkey/options', async (request, reply) => {
    const interaction = await kit.load(request, reply);
    if (!interaction || kit.csrfRejected(request, reply)) return reply;
    if (interaction.prompt.name !== 'login') return kit.wrongStep(reply, kit.languageOf(request, interaction));
    const ticket = formField(request.body as FormBody, 'ticket');
    const step = ticket ? secondStepSubject(cookieKeys, interaction.uid, ticket, deps.clock.now()) : undefined;
    if (step === null) return kit.wrongStep(reply, kit.languageOf(request, interaction));
    const options = await deps.services.passkeys.signInOptions(interaction.uid, step?.subjectId);
    return reply.header('cache-control', 'no-store').send(options);
  });

  app.post<{ Params: Params }>('/interaction/:uid/passkey', async (request, reply) => {
    const interaction = await kit.load(request, reply);
    if (!interaction || kit.csrfRejected(request, reply)) return reply;
    if (interaction.prompt.name !== 'login') return kit.wrongStep(reply, kit.languageOf(request, interaction));
    const body = request.body as FormBody;
    const ticket = formField(body, 'ticket');
    const step = ticket ? secondStepSubject(cookieKeys, interaction.uid, ticket, deps.clock.now()) : undefined;
    if (step === null) return loginPage(request, reply, interaction, 400, {});
    const subjectId = step?.subjectId;
    let signedIn: Awaited<ReturnType<typeof deps.services.passkeys.signIn>>;
    try {
      signedIn = await deps.services.passkeys.signIn(interaction.uid, parseCredential(body), { ip: request.ip, surface: 'login_page' }, subjectId);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'rate_limited') throw error;
      const retryAfterSeconds = error.retryAfterSeconds ?? 60;
      reply.header('retry-after', String(retryAfterSeconds));
      return subjectId ? kit.showOneTimeCodePage(request, reply, interaction, ticket, 429, { retryAfterSeconds }, await kit.savedLocaleOf(subjectId)) : loginPage(request, reply, interaction, 429, { retryAfterSeconds });
    }
    if (!signedIn) return subjectId ? kit.showOneTimeCodePage(request, reply, interaction, ticket, 401, { passkeyFailed: true }, await kit.savedLocaleOf(subjectId)) : loginPage(request, reply, interaction, 401, { passkeyProblem: 'failed' });
    const { user, userVerified } = signedIn;
    // Alone, a passkey is a first proof only when the authenticator verified the person (PIN, biometrics);
    // after a first proof, it is the second factor either way.
    if (!step && !userVerified) return loginPage(request, reply, interaction, 401, { passkeyProblem: 'not_verified' });
    return kit.decideAndContinue(request, reply, interaction, user, step ? { first: step.first, second: 'hwk' } : { first: 'hwk' });
  });
}

import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DeadLinkReason } from '../domain/account-links.ts';
import { AppError } from '../errors.ts';
import type { Services } from '../services/index.ts';
import { pageLanguage, rememberLanguageChoice } from '../pages/page-language.ts';
import { pageSecurityHeaders } from '../pages/page-security.ts';
import {
  renderAddressTakenPage,
  renderDeadLinkPage,
  renderEmailVerifiedPage,
  renderForgotPage,
  renderPasswordSetPage,
  renderSetPasswordPage,
  renderVerifyEmailPage,
  type DeadLinkKind,
} from './account-pages.ts';
import { PASSWORD_RULES } from '../domain/passwords.ts';
import type { PageLanguage } from '../pages/layout.ts';

type TokenParams = { Params: { token: string } };
type FormBody = Record<string, unknown> | undefined;

const field = (body: unknown, name: string): string => {
  const value = (body as FormBody)?.[name];
  return typeof value === 'string' ? value : '';
};

function sendPage(reply: FastifyReply, status: number, page: string): FastifyReply {
  return reply.status(status).headers(pageSecurityHeaders()).send(page);
}

function sendDeadLink(reply: FastifyReply, reason: DeadLinkReason, kind: DeadLinkKind, language: PageLanguage): FastifyReply {
  return sendPage(reply, reason === 'unknown' ? 404 : 410, renderDeadLinkPage(reason, kind, language));
}

/** A wrong new password re-renders the form with the rule it broke; any other problem is the error handler's. */
function passwordProblem(error: unknown, password: string): string {
  if (!(error instanceof AppError && error.code === 'invalid_request' && error.fieldErrors?.newPassword)) throw error;
  if (password.length < PASSWORD_RULES.minLength) return 'too_short';
  if (password.length > PASSWORD_RULES.maxLength) return 'too_long';
  return error.fieldErrors.newPassword;
}

/** The page's address without its query: where its form posts and its switcher points. */
const pathOf = (request: FastifyRequest) => request.url.split('?')[0]!;

/**
 * The pages mailed links open ({issuer}/account/invitation/{token}, /account/reset/{token},
 * /account/verify-email/{token}) and "Forgot your password?" at /account/forgot. A GET only shows;
 * the form's POST acts. The token in the path is the only credential: no sign-in, no cookie, and
 * pages send no Referer, so the link does not leak to other sites.
 */
export async function accountLinkRoutes(app: FastifyInstance, options: { services: Services; secureCookies: boolean }): Promise<void> {
  const { invitations, passwordReset, emailVerification } = options.services;
  await app.register(formbody);
  const secure = options.secureCookies;

  /** The page's language (page-language.ts); a POST's page switches through its GET page. */
  const languageOf = (request: FastifyRequest, saved?: string | null) => pageLanguage(request, { saved, selfPath: request.method === 'GET' ? undefined : pathOf(request) });

  app.get('/account/forgot', async (request, reply) => {
    rememberLanguageChoice(request, reply.raw, secure);
    return sendPage(reply, 200, renderForgotPage({ mailEnabled: passwordReset.mailEnabled(), language: languageOf(request) }));
  });

  app.post('/account/forgot', async (request, reply) => {
    const mailEnabled = passwordReset.mailEnabled();
    const language = languageOf(request);
    if (!mailEnabled) return sendPage(reply, 503, renderForgotPage({ mailEnabled, language }));
    const account = field(request.body, 'account').trim();
    try {
      await passwordReset.requestReset(account, { ip: request.ip });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.code === 'rate_limited') {
        const retryAfterSeconds = error.retryAfterSeconds ?? 60;
        return sendPage(reply.header('retry-after', String(retryAfterSeconds)), 429, renderForgotPage({ mailEnabled, account, retryAfterSeconds, language }));
      }
      if (error.code === 'invalid_request') return sendPage(reply, 400, renderForgotPage({ mailEnabled, account, missingAccount: true, language }));
      throw error;
    }
    return sendPage(reply, 200, renderForgotPage({ mailEnabled, sent: true, language }));
  });

  for (const [kind, path] of [['invitation', '/account/invitation/:token'], ['reset', '/account/reset/:token']] as const) {
    const check = kind === 'invitation' ? invitations.checkInvitation : passwordReset.checkResetLink;
    const act = kind === 'invitation' ? invitations.acceptInvitation : passwordReset.resetPassword;
    const purpose = kind;

    app.get<TokenParams>(path, async (request, reply) => {
      rememberLanguageChoice(request, reply.raw, secure);
      const checked = await check(request.params.token);
      if ('dead' in checked) return sendDeadLink(reply, checked.dead, kind, languageOf(request));
      const language = languageOf(request, checked.holder.locale);
      return sendPage(reply, 200, renderSetPasswordPage({ purpose, action: pathOf(request), account: checked.holder.account, displayName: checked.holder.displayName, language }));
    });

    app.post<TokenParams>(path, async (request, reply) => {
      const { token } = request.params;
      // Read first for the person's saved language: the answer pages speak it like the form did.
      const before = await check(token);
      if ('dead' in before) return sendDeadLink(reply, before.dead, kind, languageOf(request));
      const language = languageOf(request, before.holder.locale);
      let outcome: Awaited<ReturnType<typeof act>>;
      const newPassword = field(request.body, 'newPassword');
      try {
        outcome = await act(token, newPassword, { ip: request.ip });
      } catch (error) {
        const problem = passwordProblem(error, newPassword);
        const checked = await check(token);
        if ('dead' in checked) return sendDeadLink(reply, checked.dead, kind, language);
        return sendPage(reply, 400, renderSetPasswordPage({ purpose, action: pathOf(request), account: checked.holder.account, displayName: checked.holder.displayName, problem, language }));
      }
      if ('dead' in outcome) return sendDeadLink(reply, outcome.dead, kind, language);
      return sendPage(reply, 200, renderPasswordSetPage(purpose, outcome.account, language));
    });
  }

  app.get<TokenParams>('/account/verify-email/:token', async (request, reply) => {
    rememberLanguageChoice(request, reply.raw, secure);
    const checked = await emailVerification.checkVerificationLink(request.params.token);
    if ('dead' in checked) return sendDeadLink(reply, checked.dead, 'verification', languageOf(request));
    const language = languageOf(request, checked.holder.locale);
    return sendPage(reply, 200, renderVerifyEmailPage({ action: pathOf(request), account: checked.holder.account, email: checked.holder.email, language }));
  });

  app.post<TokenParams>('/account/verify-email/:token', async (request, reply) => {
    const before = await emailVerification.checkVerificationLink(request.params.token);
    const language = languageOf(request, 'holder' in before ? before.holder.locale : null);
    const outcome = await emailVerification.confirmEmail(request.params.token, { ip: request.ip });
    if ('dead' in outcome) return sendDeadLink(reply, outcome.dead, 'verification', language);
    if ('takenElsewhere' in outcome) return sendPage(reply, 409, renderAddressTakenPage({ email: outcome.email, account: outcome.account, language }));
    return sendPage(reply, 200, renderEmailVerifiedPage(outcome.email, language));
  });
}

import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { DeadLinkReason } from '../domain/account-links.ts';
import { AppError } from '../errors.ts';
import type { Services } from '../services/index.ts';
import { pageSecurityHeaders } from './page-security.ts';
import {
  renderDeadLinkPage,
  renderEmailVerifiedPage,
  renderForgotPage,
  renderPasswordSetPage,
  renderSetPasswordPage,
  renderVerifyEmailPage,
  type DeadLinkKind,
} from './pages/account-pages.ts';

type TokenParams = { Params: { token: string } };
type FormBody = Record<string, unknown> | undefined;

const field = (body: unknown, name: string): string => {
  const value = (body as FormBody)?.[name];
  return typeof value === 'string' ? value : '';
};

function sendPage(reply: FastifyReply, status: number, page: string): FastifyReply {
  return reply.status(status).headers(pageSecurityHeaders()).send(page);
}

function sendDeadLink(reply: FastifyReply, reason: DeadLinkReason, kind: DeadLinkKind): FastifyReply {
  return sendPage(reply, reason === 'unknown' ? 404 : 410, renderDeadLinkPage(reason, kind));
}

/** A wrong new password re-renders the form with the rule it broke; any other problem is the error handler's. */
function passwordProblem(error: unknown): string {
  if (error instanceof AppError && error.code === 'invalid_request' && error.fieldErrors?.newPassword) return error.fieldErrors.newPassword;
  throw error;
}

/**
 * The pages mailed links open ({issuer}/account/invitation/{token}, /account/reset/{token},
 * /account/verify-email/{token}) and "Forgot your password?" at /account/forgot. A GET only shows;
 * the form's POST acts. The token in the path is the only credential: no sign-in, no cookie, and
 * pages send no Referer, so the link does not leak to other sites.
 */
export async function accountLinkRoutes(app: FastifyInstance, options: { services: Services }): Promise<void> {
  const { invitations, passwordReset, emailVerification } = options.services;
  await app.register(formbody);

  app.get('/account/forgot', async (_request, reply) => sendPage(reply, 200, renderForgotPage({ mailEnabled: passwordReset.mailEnabled() })));

  app.post('/account/forgot', async (request, reply) => {
    const mailEnabled = passwordReset.mailEnabled();
    if (!mailEnabled) return sendPage(reply, 503, renderForgotPage({ mailEnabled }));
    const account = field(request.body, 'account').trim();
    try {
      await passwordReset.requestReset(account, { ip: request.ip });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.code === 'rate_limited') {
        const retryAfterSeconds = error.retryAfterSeconds ?? 60;
        return sendPage(reply.header('retry-after', String(retryAfterSeconds)), 429, renderForgotPage({ mailEnabled, account, retryAfterSeconds }));
      }
      if (error.code === 'invalid_request') return sendPage(reply, 400, renderForgotPage({ mailEnabled, account, problem: 'Enter your account name.' }));
      throw error;
    }
    return sendPage(reply, 200, renderForgotPage({ mailEnabled, sent: true }));
  });

  for (const [kind, path] of [['invitation', '/account/invitation/:token'], ['reset', '/account/reset/:token']] as const) {
    const check = kind === 'invitation' ? invitations.checkInvitation : passwordReset.checkResetLink;
    const act = kind === 'invitation' ? invitations.acceptInvitation : passwordReset.resetPassword;
    const purpose = kind;

    app.get<TokenParams>(path, async (request, reply) => {
      const checked = await check(request.params.token);
      if ('dead' in checked) return sendDeadLink(reply, checked.dead, kind);
      return sendPage(reply, 200, renderSetPasswordPage({ purpose, action: request.url.split('?')[0]!, account: checked.holder.account, displayName: checked.holder.displayName }));
    });

    app.post<TokenParams>(path, async (request, reply) => {
      const { token } = request.params;
      let outcome: Awaited<ReturnType<typeof act>>;
      try {
        outcome = await act(token, field(request.body, 'newPassword'), { ip: request.ip });
      } catch (error) {
        const problem = passwordProblem(error);
        const checked = await check(token);
        if ('dead' in checked) return sendDeadLink(reply, checked.dead, kind);
        return sendPage(reply, 400, renderSetPasswordPage({ purpose, action: request.url.split('?')[0]!, account: checked.holder.account, displayName: checked.holder.displayName, problem }));
      }
      if ('dead' in outcome) return sendDeadLink(reply, outcome.dead, kind);
      return sendPage(reply, 200, renderPasswordSetPage(purpose, outcome.account));
    });
  }

  app.get<TokenParams>('/account/verify-email/:token', async (request, reply) => {
    const checked = await emailVerification.checkVerificationLink(request.params.token);
    if ('dead' in checked) return sendDeadLink(reply, checked.dead, 'verification');
    return sendPage(reply, 200, renderVerifyEmailPage({ action: request.url.split('?')[0]!, account: checked.holder.account, email: checked.holder.email }));
  });

  app.post<TokenParams>('/account/verify-email/:token', async (request, reply) => {
    const outcome = await emailVerification.confirmEmail(request.params.token, { ip: request.ip });
    if ('dead' in outcome) return sendDeadLink(reply, outcome.dead, 'verification');
    return sendPage(reply, 200, renderEmailVerifiedPage(outcome.email));
  });
}

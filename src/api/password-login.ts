import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import type { Services } from '../services/index.ts';
import type { SessionKind } from '../domain/statuses.ts';
import type { LoginResult } from '../services/sessions.ts';

/**
 * Password login under the sign-in failure limits the OIDC login page shares: a wrong password
 * counts against the account, the address and both; too many answer 429 rate_limited.
 */
export async function loginWithinLimits(request: FastifyRequest, services: Services, credentials: { account: string; password: string }, kind: SessionKind): Promise<LoginResult> {
  let refusal: AppError | undefined;
  const result = await request.server.rateLimits.signIn.attempt({ account: credentials.account, ip: request.ip, surface: kind === 'agent' ? 'agent' : 'management' }, async () => {
    try {
      return await services.sessions.login(credentials.account, credentials.password, { kind, ip: request.ip });
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'invalid_credentials') throw error;
      refusal = error;
      return null;
    }
  });
  if (!result) throw refusal ?? new AppError('invalid_credentials', 'The account or password is wrong, or the account is disabled.');
  return result;
}

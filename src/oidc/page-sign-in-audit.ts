import type { FastifyRequest } from 'fastify';
import type { Services } from '../services/index.ts';

/** What the login pages hand oidc-provider for a signed-in person (InteractionResults' `login`). */
interface PageLogin {
  accountId: string;
  amr?: string[] | undefined;
  acr?: string | undefined;
}

/** The way in, from the authentication methods the page reported (RFC 8176 values). */
const methodOf = (amr: readonly string[]) => (amr.includes('fed') ? 'upstream' : amr.includes('hwk') && !amr.includes('pwd') ? 'passkey' : 'password');

/** Records a sign-in at the login pages in the administrators' trail (`session.login`, kind `oidc`), naming the application. */
export async function auditPageSignIn(services: Services, request: FastifyRequest, login: PageLogin, clientId: unknown): Promise<void> {
  const amr = login.amr ?? [];
  await services.sessions.recordPageSignIn(login.accountId, {
    ip: request.ip,
    method: methodOf(amr),
    secondFactor: login.acr === 'mfa',
    clientId: typeof clientId === 'string' ? clientId : null,
  });
}

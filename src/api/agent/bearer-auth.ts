import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services/index.ts';
import { bearerTokenOf } from '../bearer-token.ts';
import { insufficientScopeChallenge, loginChallenge } from '../operation-scope.ts';
import type { SurfaceAuth } from '../register-operations.ts';

/**
 * The Agent API's sign-in: `Authorization: Bearer <token>`; no cookie, no CSRF token. The token is a
 * password session's from POST /api/agent/auth/login, or an assistant's OAuth access token for the
 * resource `{issuer}/api/agent` (then its scopes bound what it may do, and changes name the assistant).
 */
export function createBearerAuth(services: Services, options: { resource: string; metadataUrl: string }): SurfaceAuth {
  const challenge = loginChallenge(options.metadataUrl, { realm: 'sesame-agent-api' });
  return {
    surface: 'agent',
    insufficientScopeChallenge: (error) => insufficientScopeChallenge(error, options.metadataUrl),
    async authenticate(request, _method, reply) {
      void reply.header('www-authenticate', challenge);
      const token = bearerTokenOf(request.headers.authorization);
      if (!token) throw new AppError('login_required', 'Send `Authorization: Bearer <accessToken>`: an OAuth access token for this API, or the token from POST /api/agent/auth/login.');
      const authenticated = await services.sessions.authenticate(token, 'agent');
      if (authenticated) {
        void reply.removeHeader('www-authenticate');
        return { user: authenticated.user, token, enrolmentRequired: authenticated.session.enrolmentRequired };
      }
      const assistant = await verifyOAuthToken(request, token, options.resource);
      if (!assistant) throw new AppError('login_required', 'The access token is unknown, expired or revoked, or was not issued for this API; sign in again.');
      void reply.removeHeader('www-authenticate');
      return { user: assistant.user, token, assistant: { clientId: assistant.clientId, clientName: assistant.clientName, grantId: assistant.grantId, scopes: assistant.scopes } };
    },
  };
}

const verifyOAuthToken = (request: FastifyRequest, token: string, resource: string) => request.server.oidc.verifyAssistantToken(token, resource);

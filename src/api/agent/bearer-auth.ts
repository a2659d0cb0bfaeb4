import { AppError } from '../../errors.ts';
import type { Services } from '../../services/index.ts';
import type { SurfaceAuth } from '../register-operations.ts';

const BEARER = /^Bearer[ ]+([^\s]+)[ ]*$/i;

/** The Agent API's sign-in: `Authorization: Bearer <accessToken>`; no cookie, no CSRF token. */
export function createBearerAuth(services: Services): SurfaceAuth {
  return {
    surface: 'agent',
    async authenticate(request, _method, reply) {
      void reply.header('www-authenticate', 'Bearer realm="sesame-agent-api"');
      const match = BEARER.exec(request.headers.authorization ?? '');
      if (!match) throw new AppError('login_required', 'Send `Authorization: Bearer <accessToken>` with the token from POST /api/agent/auth/login.');
      const token = match[1]!;
      const authenticated = await services.sessions.authenticate(token, 'agent');
      if (!authenticated) throw new AppError('login_required', 'The access token is unknown, expired or revoked; log in again with POST /api/agent/auth/login.');
      void reply.removeHeader('www-authenticate');
      return { user: authenticated.user, token };
    },
  };
}


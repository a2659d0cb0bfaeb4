import { AppError } from '../../errors.ts';
import type { Services } from '../../services/index.ts';
import { isStateChanging } from '../operation.ts';
import type { SurfaceAuth } from '../register-operations.ts';
import type { ConsoleCookies } from './console-cookies.ts';
import type { CsrfTokens } from './csrf.ts';

export const CSRF_HEADER = 'x-csrf-token';

/** The console's sign-in: the session cookie, plus the X-CSRF-Token header on every state-changing request. */
export function createCookieAuth(services: Services, cookies: ConsoleCookies, csrf: CsrfTokens): SurfaceAuth {
  return {
    surface: 'console',
    async authenticate(request, method) {
      const token = cookies.read(request, 'session');
      const authenticated = token ? await services.sessions.authenticate(token, 'console') : null;
      if (!token || !authenticated) throw new AppError('login_required', 'Sign in to the console first (POST /api/management/auth/login); the session is missing or has ended.');
      const presented = request.headers[CSRF_HEADER];
      if (isStateChanging(method) && !csrf.verifySession(token, typeof presented === 'string' ? presented : undefined)) {
        throw new AppError('csrf_failed', 'Send the csrfToken from GET /api/management/auth/context in the X-CSRF-Token header; nothing was changed.');
      }
      return { user: authenticated.user, token, provenAt: authenticated.session.provenAt, enrolmentRequired: authenticated.session.enrolmentRequired };
    },
  };
}

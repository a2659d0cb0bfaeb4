import { mayRunDuringEnrolment } from '../enrolment-session.ts';
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import type { ErrorCode } from '../../errors.ts';
import { openApiDocumentOperation } from '../openapi.ts';
import { createDeviceCookie, type DeviceCookie } from '../../security/device-cookie.ts';
import { isStateChanging, type AnyOperation } from '../operation.ts';
import { sharedOperations } from '../operations/index.ts';
import { PACKAGE_VERSION } from '../package-version.ts';
import { acceptJsonBodiesOnly, forbidCaching, registerOperations, type ApiDeps } from '../register-operations.ts';
import { consoleAuthOperations } from './auth-operations.ts';
import { createConsoleCookies, type ConsoleCookies } from './console-cookies.ts';
import { createCookieAuth } from './cookie-auth.ts';
import { createCsrfTokens, type CsrfTokens } from './csrf.ts';

export const MANAGEMENT_API_PREFIX = '/api/management';

export interface ManagementApiDeps extends ApiDeps {
  cookieKeys: readonly string[];
}

function managementOperations(deps: ManagementApiDeps, cookies: ConsoleCookies, csrf: CsrfTokens, device: DeviceCookie): AnyOperation[] {
  const serverUrl = `${deps.config.issuer}${MANAGEMENT_API_PREFIX}`;
  const getOpenApiDocument = openApiDocumentOperation(
    {
      title: 'Sesame Management API',
      version: PACKAGE_VERSION,
      description:
        'The browser console\'s API: the same operations and rules as the Agent API, with an HttpOnly session cookie instead of a bearer token. ' +
        'Every state-changing request needs the X-CSRF-Token header (from GET /auth/context or the login answer); login needs the login-CSRF token.',
      serverUrl,
      infoExtensions: {},
      securitySchemes: {
        sessionCookie: { type: 'apiKey', in: 'cookie', name: cookies.names.session, description: 'Set by POST /auth/login; HttpOnly.' },
        csrfHeader: { type: 'apiKey', in: 'header', name: 'X-CSRF-Token', description: 'The csrfToken from GET /auth/context or from the login answer.' },
        loginCsrfCookie: { type: 'apiKey', in: 'cookie', name: cookies.names.loginCsrf, description: 'Set by GET /auth/context while signed out; pairs with the login-CSRF token.' },
      },
      sessionSecurity: (operation): Array<Record<string, string[]>> => [isStateChanging(operation.method) ? { sessionCookie: [], csrfHeader: [] } : { sessionCookie: [] }],
      sessionErrors: (operation): ErrorCode[] => [
        'login_required',
        ...(isStateChanging(operation.method) ? (['csrf_failed'] as const) : []),
        ...(mayRunDuringEnrolment(operation, 'console') ? [] : (['mfa_enrolment_required'] as const)),
        // A person-only operation in a session whose proof of the person is too old (DESIGN.md section 14); re-authenticating is how to renew it.
        ...(operation.onlyFrom === 'console' && operation.operationId !== 'reauthenticate' ? (['reauthentication_required'] as const) : []),
      ],
    },
    'Management API (the console\'s API)',
    () => operations,
  );

  const operations: AnyOperation[] = [getOpenApiDocument, ...consoleAuthOperations(cookies, csrf, device), ...sharedOperations];
  return operations;
}

/** The Management API: the console's cookie session and CSRF tokens over the shared operations. */
export async function managementApi(api: FastifyInstance, deps: ManagementApiDeps): Promise<void> {
  const cookies = createConsoleCookies(deps.config.issuer);
  const csrf = createCsrfTokens(deps.cookieKeys);
  await api.register(fastifyCookie);
  acceptJsonBodiesOnly(api);
  forbidCaching(api);
  const device = createDeviceCookie({ issuer: deps.config.issuer, cookieKeys: deps.cookieKeys });
  registerOperations(api, managementOperations(deps, cookies, csrf, device), createCookieAuth(deps.services, cookies, csrf), deps.services);
}

import type { LoggerOptions } from 'pino';
import { ACCOUNT_LINK_PATHS } from '../domain/account-links.ts';

/** Anything that could carry a credential is censored before a log line is written. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.clientSecret',
  '*.client_secret',
  '*.accessToken',
  '*.access_token',
  '*.refresh_token',
  '*.id_token',
  '*.code',
  '*.code_verifier',
  '*.newPassword',
  '*.currentPassword',
  '*.secret',
  '*.refreshToken',
  '*.idToken',
  '*.token',
  '*.client_assertion',
  // Identity providers: the upstream client secret and the directory bind password, also inside their settings.
  '*.bindPassword',
  '*.oidc.clientSecret',
  '*.ldap.bindPassword',
  '*.codeVerifier',
  // A database error's detail can quote the row it refused (a unique digest, an account).
  'err.detail',
];

const LINK_TOKEN_IN_PATH = new RegExp(`(${Object.values(ACCOUNT_LINK_PATHS).map((path) => path.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')).join('|')})[^/?#]*`, 'g');

/**
 * The path of a request as it may be logged: no query string (authorization codes, states) and no
 * mailed link's token (`/account/reset/{token}` and the like: the token is the whole credential).
 */
export function loggablePath(url: string): string {
  return url.split('?')[0]!.replace(LINK_TOKEN_IN_PATH, '$1[redacted]');
}

export function createLoggerOptions(level: string): LoggerOptions & { level: string } {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      req: (req: { method?: string; url?: string; ip?: string }) => ({ method: req.method, url: typeof req.url === 'string' ? loggablePath(req.url) : undefined, ip: req.ip }),
    },
  };
}

import type { LoggerOptions } from 'pino';

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

export function createLoggerOptions(level: string): LoggerOptions & { level: string } {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      // Query strings carry authorization codes and states; log the path only.
      req: (req: { method?: string; url?: string; ip?: string }) => ({ method: req.method, url: typeof req.url === 'string' ? req.url.split('?')[0] : undefined, ip: req.ip }),
    },
  };
}

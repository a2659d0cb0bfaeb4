import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';

/**
 * The client a token request names in its Basic credentials (form-encoded, RFC 6749 2.3.1),
 * unauthenticated yet; undefined when there are none. Public clients name themselves in the
 * form body, which oidc-provider reads itself; they are held per IP (their users' own addresses).
 */
export function claimedClientId(authorization: string | undefined): string | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i.exec(authorization ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0 || colon > 512) return undefined;
  try {
    return decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/**
 * Holds a `/token` request to the token limits before oidc-provider sees it. When refused it
 * answers 429 with Retry-After and an OAuth-shaped `slow_down` error, and returns true: the
 * caller must then stop (return the reply from its hook).
 */
export async function refuseTokenRequestOverLimit(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  try {
    await request.server.rateLimits.token.admit({ clientId: claimedClientId(request.headers.authorization), ip: request.ip });
    return false;
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'rate_limited') throw error;
    await reply
      .status(429)
      .headers({ 'retry-after': String(error.retryAfterSeconds ?? 1), 'cache-control': 'no-store', pragma: 'no-cache' })
      .send({ error: 'slow_down', error_description: error.message });
    return true;
  }
}

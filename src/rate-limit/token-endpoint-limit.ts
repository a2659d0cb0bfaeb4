import type { FastifyReply, FastifyRequest } from 'fastify';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { AppError } from '../errors.ts';
import type { TokenLimiter } from './token-limiter.ts';

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
      .send(slowDown(error));
    return true;
  }
}

const slowDown = (error: AppError) => ({ error: 'slow_down', error_description: error.message });

/**
 * oidc-provider middleware that counts the token endpoint's refusals (see token-limiter.ts): after the
 * provider answered 400 or 401, the failure is counted, and when it was one too many the answer becomes
 * 429 slow_down with Retry-After. The address is Koa's view of X-Forwarded-For, which mount.ts rewrote to
 * the one Fastify resolved under TRUST_PROXY.
 */
export function countTokenFailures(limiter: TokenLimiter, log: { warn(obj: object, msg: string): void }) {
  return async function tokenFailures(ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> {
    await next();
    if (ctx.method !== 'POST' || ctx.path !== '/token' || (ctx.status !== 400 && ctx.status !== 401)) return;
    const error = (ctx.body as { error?: unknown } | undefined)?.error;
    if (typeof error !== 'string') return;
    const client = ctx.oidc?.client;
    const authenticated = client !== undefined && error !== 'invalid_client' && client.clientAuthMethod !== 'none';
    let refusal: AppError | undefined;
    try {
      refusal = await limiter.recordFailure({ error, ip: ctx.ip, authenticatedClientId: authenticated ? client.clientId : undefined });
    } catch (caught) {
      log.warn({ err: caught }, 'could not count a refused token request');
      return;
    }
    if (!refusal) return;
    ctx.status = 429;
    ctx.remove('www-authenticate');
    ctx.set('retry-after', String(refusal.retryAfterSeconds ?? 1));
    ctx.set('pragma', 'no-cache');
    ctx.body = slowDown(refusal);
  };
}

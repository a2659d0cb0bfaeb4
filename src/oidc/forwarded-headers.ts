import type { FastifyRequest } from 'fastify';

/**
 * Fastify alone decides which forwarding headers to believe (TRUST_PROXY: a hop count or trusted
 * addresses). oidc-provider's Koa trusts forwarding headers outright, so before it sees a request
 * they are rewritten to what Fastify concluded: a header a client sent itself never reaches Koa.
 * The issuer is fixed: oidc-provider builds the URLs it advertises from the request's host, so the
 * Host header becomes the issuer's (a forged Host must not put its name into discovery), and no
 * forwarded host or port is passed on. An https issuer means a TLS-terminating proxy in front
 * (Sesame never serves TLS itself), so Koa hears https and marks its cookies Secure.
 */
export function rewriteForwardedHeaders(request: FastifyRequest, issuer: URL): void {
  const ip = request.ip;
  const protocol = issuer.protocol === 'https:' ? 'https' : (request.protocol ?? 'http');
  const headers = request.raw.headers;
  headers.host = issuer.host;
  delete headers['x-forwarded-host'];
  delete headers['x-forwarded-port'];
  delete headers.forwarded;
  if (ip) headers['x-forwarded-for'] = ip;
  else delete headers['x-forwarded-for'];
  headers['x-forwarded-proto'] = protocol;
}

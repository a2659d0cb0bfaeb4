import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;

/**
 * Without TRUST_PROXY every request seems to come from the proxy in front, so all people share one
 * per-address sign-in count (and the audit log records the proxy). Production needs an https issuer and
 * Sesame serves no TLS, so in production a proxy is always in front: warn at start, and once more,
 * naming the header, at the first request that carries a forwarding header Sesame is not told to believe.
 */
export function warnWhenProxyUntrusted(app: FastifyInstance, config: Pick<Config, 'production' | 'trustProxy'>): void {
  if (!config.production || config.trustProxy !== undefined) return;
  app.log.warn(
    'TRUST_PROXY is not set: behind a proxy or load balancer every request seems to come from its address, so all people share one per-address sign-in limit and the audit log records the proxy. Set TRUST_PROXY to the proxy (e.g. TRUST_PROXY=1).',
  );
  let warned = false;
  app.addHook('onRequest', async (request) => {
    if (warned) return;
    const header = FORWARDING_HEADERS.find((name) => request.headers[name] !== undefined);
    if (header === undefined) return;
    warned = true;
    request.log.warn(
      { header, peer: request.socket.remoteAddress },
      `TRUST_PROXY is not set but requests carry ${header}: it is ignored, and every client is seen as ${request.socket.remoteAddress ?? 'the proxy'}. Set TRUST_PROXY to the proxy in front of Sesame.`,
    );
  });
}

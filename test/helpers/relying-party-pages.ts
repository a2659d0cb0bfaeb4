import { createServer } from 'node:http';
import type { Actor } from '../../src/domain/actor.ts';
import type { Scope } from '../../src/domain/clients.ts';
import type { Services } from '../../src/services/index.ts';
import type { RelyingParty } from './oidc-clients.ts';
import { freePort } from './oidc-server.ts';

export interface RelyingPartyPages {
  /** `http://127.0.0.1:{port}`: register `${origin}/callback` and the like as the client's URIs. */
  origin: string;
  close(): Promise<void>;
}

/** The relying party's own pages on a free loopback port: every path answers a page whose heading names it. */
export async function startRelyingPartyPages(): Promise<RelyingPartyPages> {
  const port = await freePort();
  const server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html lang="en"><title>RP</title><h1>Relying party at ${new URL(request.url ?? '/', 'http://rp').pathname}</h1></html>`);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The pages of a relying party registered as a web client, and what openid-client needs to act as it. */
export interface RegisteredRelyingParty extends RelyingPartyPages {
  rp: RelyingParty;
}

/**
 * Starts the relying party's pages and registers them through the clients service as a web client of
 * `projectId`: redirect to `/callback`, back after sign-out to `/signed-out`.
 */
export async function startRegisteredRelyingParty(
  services: Services,
  actor: Actor,
  projectId: string,
  client: { displayName: string; scopes: Scope[] },
): Promise<RegisteredRelyingParty> {
  const pages = await startRelyingPartyPages();
  const { origin } = pages;
  const registered = await services.clients.registerClient(actor, projectId, {
    clientType: 'web',
    displayName: client.displayName,
    redirectUris: [`${origin}/callback`],
    postLogoutRedirectUris: [`${origin}/signed-out`],
    scopeWhitelist: client.scopes,
  });
  return {
    ...pages,
    rp: { clientId: registered.client.clientId, clientSecret: registered.secret!.value, redirectUri: `${origin}/callback`, postLogoutRedirectUri: `${origin}/signed-out` },
  };
}

/** The one client the oidc-provider ceiling knows; its secret comes from the parent through CEILING_CLIENT_SECRET. */
export const CEILING_CLIENT = { clientId: 'bench-web', redirectUri: 'http://127.0.0.1:9/bench/callback' } as const;

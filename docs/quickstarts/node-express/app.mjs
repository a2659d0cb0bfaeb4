// Sign people in to an Express app with Sesame: Authorization Code + PKCE through openid-client.
//   npm install express express-session openid-client
//   SESAME_ISSUER=https://sesame.example.org CLIENT_ID=... CLIENT_SECRET=... node app.mjs
import express from 'express';
import session from 'express-session';
import * as oidc from 'openid-client';

/** Builds the app; `listen` is left to the caller (the test starts it on a free port). */
export async function createApp({ issuer, clientId, clientSecret, baseUrl, sessionSecret }) {
  // Discovery: endpoints and keys come from {issuer}/.well-known/openid-configuration.
  // (openid-client refuses http:// issuers; allowInsecureRequests is for a local Sesame only.)
  // Sesame authenticates web clients with HTTP Basic (client_secret_basic), not openid-client's default form post.
  const config = await oidc.discovery(new URL(issuer), clientId, undefined, oidc.ClientSecretBasic(clientSecret), issuer.startsWith('http://') ? { execute: [oidc.allowInsecureRequests] } : undefined);
  const redirectUri = `${baseUrl}/callback`;

  const app = express();
  app.use(session({ secret: sessionSecret, resave: false, saveUninitialized: false, cookie: { httpOnly: true, sameSite: 'lax' } }));

  app.get('/', (req, res) => {
    const user = req.session.user;
    res.type('html').send(user ? `<p>Signed in as ${escapeHtml(user.name ?? user.sub)}</p><form method="post" action="/logout"><button>Sign out</button></form>` : '<a href="/login">Sign in with Sesame</a>');
  });

  app.get('/login', async (req, res) => {
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    req.session.pending = { codeVerifier, state };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid profile email',
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
    });
    res.redirect(url.href);
  });

  app.get('/callback', async (req, res, next) => {
    try {
      const pending = req.session.pending;
      if (!pending) return res.status(400).send('No sign-in in progress; start again at /login.');
      delete req.session.pending;
      const tokens = await oidc.authorizationCodeGrant(config, new URL(req.originalUrl, baseUrl), { pkceCodeVerifier: pending.codeVerifier, expectedState: pending.state });
      // The ID token is verified by openid-client (signature, issuer, audience); userinfo gives the profile claims.
      const claims = tokens.claims();
      const profile = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      req.session.user = { sub: claims.sub, name: profile.name, email: profile.email };
      req.session.idToken = tokens.id_token;
      res.redirect('/');
    } catch (error) {
      next(error);
    }
  });

  app.post('/logout', (req, res) => {
    const idToken = req.session.idToken;
    req.session.destroy(() => {
      // RP-initiated logout: Sesame ends its own session too, then returns here (register `${baseUrl}/` as a post-logout URI).
      res.redirect(oidc.buildEndSessionUrl(config, { id_token_hint: idToken, post_logout_redirect_uri: `${baseUrl}/` }).href);
    });
  });

  return app;
}

const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.env.PORT ?? 4000);
  const app = await createApp({
    issuer: process.env.SESAME_ISSUER,
    clientId: process.env.CLIENT_ID,
    clientSecret: process.env.CLIENT_SECRET,
    baseUrl: process.env.BASE_URL ?? `http://localhost:${port}`,
    sessionSecret: process.env.SESSION_SECRET ?? 'change-me-to-a-long-random-string',
  });
  app.listen(port, '127.0.0.1', () => console.log(`app: http://localhost:${port}`));
}

import type { KoaContextWithOIDC } from 'oidc-provider';
import { contentSecurityPolicy, formActionSources } from '../pages/page-security.ts';

// The SHA-256 of an empty script: a script-src that allows nothing, yet is not 'none', so
// oidc-provider can add the hash of the one inline script it writes (its form_post auto-submit).
const NOTHING_SCRIPT_SRC = "script-src 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='";

type Next = () => Promise<unknown>;

/** Where a page oidc-provider rendered may send its form (and the redirects after it). */
function formTargets(ctx: KoaContextWithOIDC): (string | undefined)[] {
  try {
    const { route, params, redirectUriCheckPerformed } = ctx.oidc;
    if ((route === 'authorization' || route === 'resume') && redirectUriCheckPerformed) return [params?.redirect_uri as string | undefined];
    if (route === 'end_session' && ctx.status === 200) return [params?.post_logout_redirect_uri as string | undefined];
  } catch {
    // Not an oidc-provider route (ctx.oidc is absent): nothing to add.
  }
  return [];
}

/** Security headers on everything oidc-provider answers; `Cache-Control: no-store` on every error. */
export async function providerResponseHeaders(ctx: KoaContextWithOIDC, next: Next): Promise<void> {
  ctx.set('x-content-type-options', 'nosniff');
  ctx.set('content-security-policy', `${contentSecurityPolicy()}; ${NOTHING_SCRIPT_SRC}`);
  await next();
  if (ctx.status >= 400) ctx.set('cache-control', 'no-store');
  if (ctx.response.is('html')) {
    ctx.set('x-frame-options', 'DENY');
    ctx.set('referrer-policy', 'no-referrer');
    const targets = formActionSources(formTargets(ctx));
    if (targets.length > 0) {
      const csp = ctx.response.get('content-security-policy');
      ctx.set('content-security-policy', csp.replace(/form-action ([^;]*)/, (_match, sources: string) => `form-action ${sources} ${targets.join(' ')}`));
    }
  }
}

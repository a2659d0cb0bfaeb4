import { interactionPolicy, type KoaContextWithOIDC } from 'oidc-provider';

/** The reason oidc-provider gives the login prompt when an application asked for more than the session has. */
export const MFA_STEP_UP_REASON = 'sesame_mfa_requested';

/**
 * Whether the authorization request asks for multi-factor sign-in: `acr_values` names `mfa` and not
 * `pwd` (an application that also accepts `pwd` gets what the session has; OIDC Core 3.1.2.1).
 */
export function asksForMfa(params: Record<string, unknown>): boolean {
  const values = typeof params.acr_values === 'string' ? params.acr_values.split(' ') : [];
  return values.includes('mfa') && !values.includes('pwd');
}

/**
 * oidc-provider's own login checks (no session, max_age, id_token_hint...) and one more: a live session
 * whose sign-in was not multi-factor (acr "pwd") gets the login prompt again when the application asks
 * for `acr_values=mfa`; the interaction then asks only for the second factor (step-up).
 */
export function interactionPolicyWithStepUp(): interactionPolicy.Prompt[] {
  const policy = interactionPolicy.base();
  const login = policy.get('login')!;
  login.checks.add(
    new interactionPolicy.Check(MFA_STEP_UP_REASON, 'The client asked for multi-factor authentication', (ctx: KoaContextWithOIDC) => {
      const { oidc } = ctx;
      if (!oidc.session?.accountId || !asksForMfa(oidc.params ?? {})) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      const acr = (oidc.result?.login as { acr?: string } | undefined)?.acr ?? oidc.session.acr;
      return acr === 'mfa' ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT;
    }),
  );
  return policy;
}

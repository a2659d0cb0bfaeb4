import { useId } from 'preact/hooks';
import { CLIENT_LIMITS, SCOPES, type ClientType, type Scope } from '../../../src/domain/clients.ts';
import { SCOPE_DESCRIPTIONS } from '../../../src/domain/scopes.ts';
import type { ConfigDraft } from '../client-config.ts';
import { TextAreaField } from './field.tsx';

interface ClientConfigFieldsProps {
  clientType: ClientType;
  draft: ConfigDraft;
  onChange: (draft: ConfigDraft) => void;
  /** Problems to show now, keyed by the API's field names (local rules or the server's field_errors). */
  errors: Record<string, string>;
}

/** Redirect URIs, post-logout URIs, scopes and PKCE, with the registration rules explained beside them. */
export function ClientConfigFields({ clientType, draft, onChange, errors }: ClientConfigFieldsProps) {
  const scopesId = useId();
  const pkceHintId = useId();
  const set = (changes: Partial<ConfigDraft>) => onChange({ ...draft, ...changes });
  const toggleScope = (scope: Scope, on: boolean) =>
    set({ scopeWhitelist: on ? [...draft.scopeWhitelist, scope] : draft.scopeWhitelist.filter((s) => s !== scope) });

  return (
    <>
      <TextAreaField
        label="Redirect URIs"
        value={draft.redirectUris}
        onValue={(redirectUris) => set({ redirectUris })}
        rows={3}
        spellcheck={false}
        autoCapitalize="none"
        placeholder="https://app.example.com/callback"
        hint={`One per line, at least one, at most ${CLIENT_LIMITS.maxRedirectUris}. They must match exactly at sign-in. Use https; http only for localhost, 127.0.0.1 or [::1]; native apps may use a private-use scheme such as com.example.app:/callback. No # fragments.`}
        error={errors.redirectUris}
      />
      <TextAreaField
        label="Post-logout redirect URIs (optional)"
        value={draft.postLogoutRedirectUris}
        onValue={(postLogoutRedirectUris) => set({ postLogoutRedirectUris })}
        rows={2}
        spellcheck={false}
        autoCapitalize="none"
        placeholder="https://app.example.com/signed-out"
        hint="Where Sesame may send people after they sign out. Same rules as redirect URIs."
        error={errors.postLogoutRedirectUris}
      />
      <fieldset aria-describedby={errors.scopeWhitelist ? `${scopesId}-error` : undefined}>
        <legend>Scopes the client may request</legend>
        {SCOPES.map((scope) => {
          const locked = scope === 'openid';
          const unavailable = scope === 'offline_access' && clientType === 'spa';
          return (
            <div class="check" key={scope}>
              <input
                type="checkbox"
                id={`${scopesId}-${scope}`}
                checked={locked || (!unavailable && draft.scopeWhitelist.includes(scope))}
                disabled={locked || unavailable}
                onChange={(e) => toggleScope(scope, e.currentTarget.checked)}
              />
              <label for={`${scopesId}-${scope}`}>
                <code>{scope}</code> <span class="muted small">{unavailable ? 'not available to single-page apps' : SCOPE_DESCRIPTIONS[scope]}</span>
              </label>
            </div>
          );
        })}
        {errors.scopeWhitelist && (
          <p class="field-error" id={`${scopesId}-error`}>
            {errors.scopeWhitelist}
          </p>
        )}
      </fieldset>
      <div class="check">
        <input
          type="checkbox"
          id={`${pkceHintId}-pkce`}
          checked={clientType !== 'web' || draft.requirePkce}
          disabled={clientType !== 'web'}
          aria-describedby={pkceHintId}
          onChange={(e) => set({ requirePkce: e.currentTarget.checked })}
        />
        <label for={`${pkceHintId}-pkce`}>Require PKCE (S256)</label>
      </div>
      <p class="field-hint check-hint" id={pkceHintId}>
        {clientType !== 'web'
          ? 'Always required for single-page and native apps: they have no secret.'
          : 'Recommended. Turn it off only for a web client that cannot send a code challenge.'}
      </p>
      {errors.requirePkce && <p class="field-error">{errors.requirePkce}</p>}
    </>
  );
}

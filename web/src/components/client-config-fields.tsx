import { useId } from 'preact/hooks';
import { CLIENT_LIMITS, SCOPES, type ClientType, type Scope } from '../../../src/domain/clients.ts';
import type { ConfigDraft } from '../client-config.ts';
import { TextAreaField } from './field.tsx';
import { t } from '../i18n.ts';
import type { MessageKey } from '../../../src/i18n/catalogues.ts';

const SCOPE_KEYS = {
  openid: 'console.clientConfig.scope.openid',
  profile: 'console.clientConfig.scope.profile',
  email: 'console.clientConfig.scope.email',
  student: 'console.clientConfig.scope.student',
  groups: 'console.clientConfig.scope.groups',
  offline_access: 'console.clientConfig.scope.offline_access',
} as const satisfies Record<Scope, MessageKey>;

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
        label={t('console.clientConfig.redirectUris')}
        value={draft.redirectUris}
        onValue={(redirectUris) => set({ redirectUris })}
        rows={3}
        spellcheck={false}
        autoCapitalize="none"
        placeholder="https://app.example.com/callback"
        hint={t('console.clientConfig.redirectUrisHint', { max: CLIENT_LIMITS.maxRedirectUris })}
        error={errors.redirectUris}
      />
      <TextAreaField
        label={t('console.clientConfig.postLogoutOptional')}
        value={draft.postLogoutRedirectUris}
        onValue={(postLogoutRedirectUris) => set({ postLogoutRedirectUris })}
        rows={2}
        spellcheck={false}
        autoCapitalize="none"
        placeholder="https://app.example.com/signed-out"
        hint={t('console.clientConfig.postLogoutHint')}
        error={errors.postLogoutRedirectUris}
      />
      <fieldset aria-describedby={errors.scopeWhitelist ? `${scopesId}-error` : undefined}>
        <legend>{t('console.clientConfig.scopesLegend')}</legend>
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
                <code>{scope}</code> <span class="muted small">{t(unavailable ? 'console.clientConfig.scopeUnavailable' : SCOPE_KEYS[scope])}</span>
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
        <label for={`${pkceHintId}-pkce`}>{t('console.clientConfig.requirePkce')}</label>
      </div>
      <p class="field-hint check-hint" id={pkceHintId}>
        {t(clientType !== 'web' ? 'console.clientConfig.pkceAlways' : 'console.clientConfig.pkceRecommended')}
      </p>
      {errors.requirePkce && <p class="field-error">{errors.requirePkce}</p>}
    </>
  );
}

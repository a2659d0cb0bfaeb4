import { useEffect, useState } from 'preact/hooks';
import { api, unwrap, type ApiError } from '../api/client.ts';
import type { IdentityProvider, IdentityProviderChanges, NewIdentityProvider } from '../api/types.ts';
import { Dialog } from '../components/dialog.tsx';
import { Field, TextField } from '../components/field.tsx';
import { FormError } from '../components/form-error.tsx';
import { toApiError } from '../use-resource.ts';

const TEXT = {
  addTitle: 'Add identity provider',
  editTitle: (name: string) => `Change ${name}`,
  type: 'Type',
  typeOidc: 'OpenID Connect provider',
  typeLdap: 'LDAP directory',
  name: 'Name',
  nameHint: 'A short slug, fixed once added: lower-case letters, digits and -. Part of the redirect URI.',
  displayName: 'Display name',
  displayNameHint: 'The login page shows "Continue with" and this name.',
  enabled: 'Enabled (shown on the login page and used at sign-in)',
  provisioning: 'New people',
  provisioningCreate: 'Create them at their first sign-in',
  provisioningExisting: 'Only people who already have a Sesame account',
  linkByEmail: 'Link a first sign-in to the person with the same verified email (only when the provider verified it too)',
  domains: 'Allowed email domains (optional)',
  domainsHint: 'Separated by commas, e.g. example.edu, alumni.example.edu. Empty: every domain.',
  issuer: 'Issuer URL',
  issuerHint: 'Sesame reads its discovery document when you save.',
  clientId: 'Client id at the provider',
  clientSecret: 'Client secret at the provider',
  bindPassword: 'Bind password',
  secretKeepHint: 'Stored encrypted and never shown again. Leave empty to keep the stored one.',
  secretNewHint: 'Stored encrypted and never shown again.',
  scopes: 'Scopes',
  scopesHint: 'Separated by spaces; must include openid.',
  claimAccount: 'Claim giving the account name',
  claimDisplayName: 'Claim giving the display name',
  claimEmail: 'Claim giving the email',
  claimEmailVerified: 'Claim saying the email is verified',
  url: 'Directory URL',
  urlHint: 'ldap:// or ldaps://',
  startTls: 'Upgrade ldap:// with StartTLS',
  bindDn: 'Bind DN',
  searchBase: 'User search base',
  searchFilter: 'User search filter',
  searchFilterHint: '{account} is replaced by the escaped account name.',
  attrAccount: 'Attribute giving the account name',
  attrDisplayName: 'Attribute giving the display name',
  attrEmail: 'Attribute giving the email',
  adminGroup: 'Administrators group DN (optional)',
  cancel: 'Cancel',
  save: 'Save',
  add: 'Add provider',
  saving: 'Saving…',
} as const;

interface FormState {
  type: 'oidc' | 'ldap';
  name: string;
  displayName: string;
  enabled: boolean;
  provisioning: 'create' | 'existing_only';
  linkByVerifiedEmail: boolean;
  domains: string;
  issuer: string;
  clientId: string;
  secret: string;
  scopes: string;
  claimAccount: string;
  claimDisplayName: string;
  claimEmail: string;
  claimEmailVerified: string;
  url: string;
  startTls: boolean;
  bindDn: string;
  userSearchBase: string;
  userSearchFilter: string;
  attrAccount: string;
  attrDisplayName: string;
  attrEmail: string;
  adminGroupDn: string;
}

const EMPTY: FormState = {
  type: 'oidc', name: '', displayName: '', enabled: true, provisioning: 'create', linkByVerifiedEmail: false, domains: '',
  issuer: '', clientId: '', secret: '', scopes: 'openid profile email', claimAccount: 'preferred_username', claimDisplayName: 'name', claimEmail: 'email', claimEmailVerified: 'email_verified',
  url: '', startTls: false, bindDn: '', userSearchBase: '', userSearchFilter: '(uid={account})', attrAccount: 'uid', attrDisplayName: 'cn', attrEmail: 'mail', adminGroupDn: '',
};

function formOf(provider: IdentityProvider): FormState {
  const { oidc, ldap } = provider;
  return {
    ...EMPTY,
    type: provider.type,
    name: provider.name,
    displayName: provider.displayName,
    enabled: provider.enabled,
    provisioning: provider.provisioning,
    linkByVerifiedEmail: provider.linkByVerifiedEmail,
    domains: provider.allowedEmailDomains.join(', '),
    ...(oidc ? { issuer: oidc.issuer, clientId: oidc.clientId, scopes: oidc.scopes.join(' '), claimAccount: oidc.claims.account, claimDisplayName: oidc.claims.displayName, claimEmail: oidc.claims.email, claimEmailVerified: oidc.claims.emailVerified } : {}),
    ...(ldap ? { url: ldap.url, startTls: ldap.startTls, bindDn: ldap.bindDn, userSearchBase: ldap.userSearchBase, userSearchFilter: ldap.userSearchFilter, attrAccount: ldap.attributes.account, attrDisplayName: ldap.attributes.displayName, attrEmail: ldap.attributes.email, adminGroupDn: ldap.adminGroupDn ?? '' } : {}),
  };
}

const list = (text: string, separator: RegExp) => text.split(separator).map((item) => item.trim()).filter(Boolean);

/** The settings of the form's type; the secret only when one was typed (an empty one keeps the stored secret). */
function settingsOf(form: FormState) {
  const secret = form.secret === '' ? {} : form.type === 'oidc' ? { clientSecret: form.secret } : { bindPassword: form.secret };
  if (form.type === 'oidc') {
    return {
      oidc: {
        issuer: form.issuer.trim(), clientId: form.clientId.trim(), scopes: list(form.scopes, /\s+/),
        claims: { account: form.claimAccount.trim(), displayName: form.claimDisplayName.trim(), email: form.claimEmail.trim(), emailVerified: form.claimEmailVerified.trim() },
        ...secret,
      },
    };
  }
  return {
    ldap: {
      url: form.url.trim(), startTls: form.startTls, bindDn: form.bindDn.trim(), userSearchBase: form.userSearchBase.trim(), userSearchFilter: form.userSearchFilter.trim(),
      attributes: { account: form.attrAccount.trim(), displayName: form.attrDisplayName.trim(), email: form.attrEmail.trim() },
      adminGroupDn: form.adminGroupDn.trim() === '' ? null : form.adminGroupDn.trim(),
      ...secret,
    },
  };
}

/** Adds a provider (`provider` absent) or changes one; secrets are write-only. */
export function IdentityProviderDialog({ open, provider, onClose, onSaved }: { open: boolean; provider: IdentityProvider | null; onClose: () => void; onSaved: (saved: IdentityProvider) => void }) {
  const [form, setForm] = useState<FormState>(EMPTY);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  useEffect(() => {
    if (open) setForm(provider ? formOf(provider) : EMPTY);
  }, [open, provider]);
  const set = (changes: Partial<FormState>) => setForm({ ...form, ...changes });
  const errors = error?.fieldErrors ?? {};
  const fieldError = (...keys: string[]) => keys.map((key) => errors[key]).find(Boolean);

  const close = () => {
    setError(undefined);
    onClose();
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const common = { displayName: form.displayName.trim(), enabled: form.enabled, provisioning: form.provisioning, linkByVerifiedEmail: form.linkByVerifiedEmail, allowedEmailDomains: list(form.domains, /[,\s]+/) };
      const saved = provider
        ? (await unwrap(api.PATCH('/admin/identity-providers/{name}', { params: { path: { name: provider.name } }, body: { expectedVersion: provider.version, ...common, ...settingsOf(form) } as IdentityProviderChanges }))).identityProvider
        : (await unwrap(api.POST('/admin/identity-providers', { body: { type: form.type, name: form.name.trim(), ...common, ...settingsOf(form) } as NewIdentityProvider }))).identityProvider;
      close();
      onSaved(saved);
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };

  const hasSecret = provider ? (provider.type === 'oidc' ? provider.hasClientSecret : provider.hasBindPassword) : false;
  const secretHint = hasSecret ? TEXT.secretKeepHint : TEXT.secretNewHint;
  return (
    <Dialog open={open} title={provider ? TEXT.editTitle(provider.displayName) : TEXT.addTitle} onClose={close} wide>
      <form onSubmit={submit} noValidate>
        <FormError error={error} fieldsShown />
        {!provider && (
          <>
            <Field label={TEXT.type} error={fieldError('type')}>
              {(control) => (
                <select {...control} value={form.type} onChange={(e) => set({ type: e.currentTarget.value as FormState['type'] })}>
                  <option value="oidc">{TEXT.typeOidc}</option>
                  <option value="ldap">{TEXT.typeLdap}</option>
                </select>
              )}
            </Field>
            <TextField label={TEXT.name} value={form.name} onValue={(name) => set({ name })} hint={TEXT.nameHint} autoCapitalize="none" spellcheck={false} autoComplete="off" error={fieldError('name')} />
          </>
        )}
        <TextField label={TEXT.displayName} value={form.displayName} onValue={(displayName) => set({ displayName })} hint={TEXT.displayNameHint} error={fieldError('displayName')} />
        <div class="check">
          <input type="checkbox" id="idp-enabled" checked={form.enabled} onChange={(e) => set({ enabled: e.currentTarget.checked })} />
          <label for="idp-enabled">{TEXT.enabled}</label>
        </div>
        <Field label={TEXT.provisioning} error={fieldError('provisioning')}>
          {(control) => (
            <select {...control} value={form.provisioning} onChange={(e) => set({ provisioning: e.currentTarget.value as FormState['provisioning'] })}>
              <option value="create">{TEXT.provisioningCreate}</option>
              <option value="existing_only">{TEXT.provisioningExisting}</option>
            </select>
          )}
        </Field>
        <div class="check">
          <input type="checkbox" id="idp-link-email" checked={form.linkByVerifiedEmail} onChange={(e) => set({ linkByVerifiedEmail: e.currentTarget.checked })} />
          <label for="idp-link-email">{TEXT.linkByEmail}</label>
        </div>
        <TextField label={TEXT.domains} value={form.domains} onValue={(domains) => set({ domains })} hint={TEXT.domainsHint} error={Object.entries(errors).find(([key]) => key.startsWith('allowedEmailDomains'))?.[1]} />
        {form.type === 'oidc' ? (
          <>
            <TextField label={TEXT.issuer} value={form.issuer} onValue={(issuer) => set({ issuer })} hint={TEXT.issuerHint} autoComplete="off" error={fieldError('oidc.issuer', 'oidc')} />
            <TextField label={TEXT.clientId} value={form.clientId} onValue={(clientId) => set({ clientId })} autoComplete="off" error={fieldError('oidc.clientId')} />
            <TextField label={TEXT.clientSecret} type="password" value={form.secret} onValue={(secret) => set({ secret })} hint={secretHint} autoComplete="new-password" error={fieldError('oidc.clientSecret')} />
            <TextField label={TEXT.scopes} value={form.scopes} onValue={(scopes) => set({ scopes })} hint={TEXT.scopesHint} error={fieldError('oidc.scopes')} />
            <TextField label={TEXT.claimAccount} value={form.claimAccount} onValue={(claimAccount) => set({ claimAccount })} error={fieldError('oidc.claims.account')} />
            <TextField label={TEXT.claimDisplayName} value={form.claimDisplayName} onValue={(claimDisplayName) => set({ claimDisplayName })} error={fieldError('oidc.claims.displayName')} />
            <TextField label={TEXT.claimEmail} value={form.claimEmail} onValue={(claimEmail) => set({ claimEmail })} error={fieldError('oidc.claims.email')} />
            <TextField label={TEXT.claimEmailVerified} value={form.claimEmailVerified} onValue={(claimEmailVerified) => set({ claimEmailVerified })} error={fieldError('oidc.claims.emailVerified')} />
          </>
        ) : (
          <>
            <TextField label={TEXT.url} value={form.url} onValue={(url) => set({ url })} hint={TEXT.urlHint} autoComplete="off" error={fieldError('ldap.url', 'ldap')} />
            <div class="check">
              <input type="checkbox" id="idp-starttls" checked={form.startTls} onChange={(e) => set({ startTls: e.currentTarget.checked })} />
              <label for="idp-starttls">{TEXT.startTls}</label>
            </div>
            <TextField label={TEXT.bindDn} value={form.bindDn} onValue={(bindDn) => set({ bindDn })} autoComplete="off" error={fieldError('ldap.bindDn')} />
            <TextField label={TEXT.bindPassword} type="password" value={form.secret} onValue={(secret) => set({ secret })} hint={secretHint} autoComplete="new-password" error={fieldError('ldap.bindPassword')} />
            <TextField label={TEXT.searchBase} value={form.userSearchBase} onValue={(userSearchBase) => set({ userSearchBase })} error={fieldError('ldap.userSearchBase')} />
            <TextField label={TEXT.searchFilter} value={form.userSearchFilter} onValue={(userSearchFilter) => set({ userSearchFilter })} hint={TEXT.searchFilterHint} error={fieldError('ldap.userSearchFilter')} />
            <TextField label={TEXT.attrAccount} value={form.attrAccount} onValue={(attrAccount) => set({ attrAccount })} error={fieldError('ldap.attributes.account')} />
            <TextField label={TEXT.attrDisplayName} value={form.attrDisplayName} onValue={(attrDisplayName) => set({ attrDisplayName })} error={fieldError('ldap.attributes.displayName')} />
            <TextField label={TEXT.attrEmail} value={form.attrEmail} onValue={(attrEmail) => set({ attrEmail })} error={fieldError('ldap.attributes.email')} />
            <TextField label={TEXT.adminGroup} value={form.adminGroupDn} onValue={(adminGroupDn) => set({ adminGroupDn })} error={fieldError('ldap.adminGroupDn')} />
          </>
        )}
        <div class="actions dialog-actions">
          <button type="button" class="button" onClick={close}>
            {TEXT.cancel}
          </button>
          <button type="submit" class="button button-primary" disabled={busy}>
            {busy ? TEXT.saving : provider ? TEXT.save : TEXT.add}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

import { useEffect, useState } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';
import type { IdentityProvider, IdentityProviderChanges, NewIdentityProvider } from '../api/types.ts';
import { Dialog } from '../components/dialog.tsx';
import { DialogActions } from '../components/dialog-actions.tsx';
import { Field, TextField } from '../components/field.tsx';
import { FormError } from '../components/form-error.tsx';
import { useSubmit } from '../use-submit.ts';
import { t } from '../i18n.ts';

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
  const dialog = useSubmit(onClose);
  useEffect(() => {
    if (open) setForm(provider ? formOf(provider) : EMPTY);
  }, [open, provider]);
  const set = (changes: Partial<FormState>) => setForm({ ...form, ...changes });
  const errors = dialog.fieldErrors;
  const fieldError = (...keys: string[]) => keys.map((key) => errors[key]).find(Boolean);

  const submit = dialog.submit(async () => {
    const common = { displayName: form.displayName.trim(), enabled: form.enabled, provisioning: form.provisioning, linkByVerifiedEmail: form.linkByVerifiedEmail, allowedEmailDomains: list(form.domains, /[,\s]+/) };
    const saved = provider
      ? (await unwrap(api.PATCH('/admin/identity-providers/{name}', { params: { path: { name: provider.name } }, body: { expectedVersion: provider.version, ...common, ...settingsOf(form) } as IdentityProviderChanges }))).identityProvider
      : (await unwrap(api.POST('/admin/identity-providers', { body: { type: form.type, name: form.name.trim(), ...common, ...settingsOf(form) } as NewIdentityProvider }))).identityProvider;
    dialog.close();
    onSaved(saved);
  });

  const hasSecret = provider ? (provider.type === 'oidc' ? provider.hasClientSecret : provider.hasBindPassword) : false;
  const secretHint = hasSecret ? t('console.identityProviderForm.secretKeepHint') : t('console.identityProviderForm.secretNewHint');
  return (
    <Dialog open={open} title={provider ? t('console.identityProviderForm.editTitle', { name: provider.displayName }) : t('console.identityProviderForm.addTitle')} onClose={dialog.close} wide>
      <form onSubmit={submit} noValidate>
        <FormError error={dialog.error} fieldsShown />
        {!provider && (
          <>
            <Field label={t('console.identityProviderForm.type')} error={fieldError('type')}>
              {(control) => (
                <select {...control} value={form.type} onChange={(e) => set({ type: e.currentTarget.value as FormState['type'] })}>
                  <option value="oidc">{t('console.identityProviderForm.typeOidc')}</option>
                  <option value="ldap">{t('console.identityProviderForm.typeLdap')}</option>
                </select>
              )}
            </Field>
            <TextField label={t('console.identityProviderForm.name')} value={form.name} onValue={(name) => set({ name })} hint={t('console.identityProviderForm.nameHint')} autoCapitalize="none" spellcheck={false} autoComplete="off" error={fieldError('name')} />
          </>
        )}
        <TextField label={t('console.identityProviderForm.displayName')} value={form.displayName} onValue={(displayName) => set({ displayName })} hint={t('console.identityProviderForm.displayNameHint')} error={fieldError('displayName')} />
        <div class="check">
          <input type="checkbox" id="idp-enabled" checked={form.enabled} onChange={(e) => set({ enabled: e.currentTarget.checked })} />
          <label for="idp-enabled">{t('console.identityProviderForm.enabled')}</label>
        </div>
        <Field label={t('console.identityProviderForm.provisioning')} error={fieldError('provisioning')}>
          {(control) => (
            <select {...control} value={form.provisioning} onChange={(e) => set({ provisioning: e.currentTarget.value as FormState['provisioning'] })}>
              <option value="create">{t('console.identityProviderForm.provisioningCreate')}</option>
              <option value="existing_only">{t('console.identityProviderForm.provisioningExisting')}</option>
            </select>
          )}
        </Field>
        <div class="check">
          <input type="checkbox" id="idp-link-email" checked={form.linkByVerifiedEmail} onChange={(e) => set({ linkByVerifiedEmail: e.currentTarget.checked })} />
          <label for="idp-link-email">{t('console.identityProviderForm.linkByEmail')}</label>
        </div>
        <TextField label={t('console.identityProviderForm.domains')} value={form.domains} onValue={(domains) => set({ domains })} hint={t('console.identityProviderForm.domainsHint')} error={Object.entries(errors).find(([key]) => key.startsWith('allowedEmailDomains'))?.[1]} />
        {form.type === 'oidc' ? (
          <>
            <TextField label={t('console.identityProviderForm.issuer')} value={form.issuer} onValue={(issuer) => set({ issuer })} hint={t('console.identityProviderForm.issuerHint')} autoComplete="off" error={fieldError('oidc.issuer', 'oidc')} />
            <TextField label={t('console.identityProviderForm.clientId')} value={form.clientId} onValue={(clientId) => set({ clientId })} autoComplete="off" error={fieldError('oidc.clientId')} />
            <TextField label={t('console.identityProviderForm.clientSecret')} type="password" value={form.secret} onValue={(secret) => set({ secret })} hint={secretHint} autoComplete="new-password" error={fieldError('oidc.clientSecret')} />
            <TextField label={t('console.identityProviderForm.scopes')} value={form.scopes} onValue={(scopes) => set({ scopes })} hint={t('console.identityProviderForm.scopesHint')} error={fieldError('oidc.scopes')} />
            <TextField label={t('console.identityProviderForm.claimAccount')} value={form.claimAccount} onValue={(claimAccount) => set({ claimAccount })} error={fieldError('oidc.claims.account')} />
            <TextField label={t('console.identityProviderForm.claimDisplayName')} value={form.claimDisplayName} onValue={(claimDisplayName) => set({ claimDisplayName })} error={fieldError('oidc.claims.displayName')} />
            <TextField label={t('console.identityProviderForm.claimEmail')} value={form.claimEmail} onValue={(claimEmail) => set({ claimEmail })} error={fieldError('oidc.claims.email')} />
            <TextField label={t('console.identityProviderForm.claimEmailVerified')} value={form.claimEmailVerified} onValue={(claimEmailVerified) => set({ claimEmailVerified })} error={fieldError('oidc.claims.emailVerified')} />
          </>
        ) : (
          <>
            <TextField label={t('console.identityProviderForm.url')} value={form.url} onValue={(url) => set({ url })} hint={t('console.identityProviderForm.urlHint')} autoComplete="off" error={fieldError('ldap.url', 'ldap')} />
            <div class="check">
              <input type="checkbox" id="idp-starttls" checked={form.startTls} onChange={(e) => set({ startTls: e.currentTarget.checked })} />
              <label for="idp-starttls">{t('console.identityProviderForm.startTls')}</label>
            </div>
            <TextField label={t('console.identityProviderForm.bindDn')} value={form.bindDn} onValue={(bindDn) => set({ bindDn })} autoComplete="off" error={fieldError('ldap.bindDn')} />
            <TextField label={t('console.identityProviderForm.bindPassword')} type="password" value={form.secret} onValue={(secret) => set({ secret })} hint={secretHint} autoComplete="new-password" error={fieldError('ldap.bindPassword')} />
            <TextField label={t('console.identityProviderForm.searchBase')} value={form.userSearchBase} onValue={(userSearchBase) => set({ userSearchBase })} error={fieldError('ldap.userSearchBase')} />
            <TextField label={t('console.identityProviderForm.searchFilter')} value={form.userSearchFilter} onValue={(userSearchFilter) => set({ userSearchFilter })} hint={t('console.identityProviderForm.searchFilterHint')} error={fieldError('ldap.userSearchFilter')} />
            <TextField label={t('console.identityProviderForm.attrAccount')} value={form.attrAccount} onValue={(attrAccount) => set({ attrAccount })} error={fieldError('ldap.attributes.account')} />
            <TextField label={t('console.identityProviderForm.attrDisplayName')} value={form.attrDisplayName} onValue={(attrDisplayName) => set({ attrDisplayName })} error={fieldError('ldap.attributes.displayName')} />
            <TextField label={t('console.identityProviderForm.attrEmail')} value={form.attrEmail} onValue={(attrEmail) => set({ attrEmail })} error={fieldError('ldap.attributes.email')} />
            <TextField label={t('console.identityProviderForm.adminGroup')} value={form.adminGroupDn} onValue={(adminGroupDn) => set({ adminGroupDn })} error={fieldError('ldap.adminGroupDn')} />
          </>
        )}
        <DialogActions
          onCancel={dialog.close}
          cancelLabel={t('console.identityProviderForm.cancel')}
          label={provider ? t('console.identityProviderForm.save') : t('console.identityProviderForm.add')}
          busyLabel={t('console.identityProviderForm.saving')}
          busy={dialog.busy}
        />
      </form>
    </Dialog>
  );
}

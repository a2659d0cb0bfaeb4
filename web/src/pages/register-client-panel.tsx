import { useState } from 'preact/hooks';
import { CLIENT_TYPES, type ClientType } from '../../../src/domain/clients.ts';
import { api, unwrap } from '../api/client.ts';
import type { Client, NewSecret } from '../api/types.ts';
import {
  bodyFromDraft,
  configProblems,
  problemsByField,
  descriptionProblem,
  displayNameProblem,
  emptyDraft,
  fitDraftToType,
  uriLines,
  type ConfigDraft,
} from '../client-config.ts';
import { ClientConfigFields } from '../components/client-config-fields.tsx';
import { TextAreaField, TextField } from '../components/field.tsx';
import { FormError } from '../components/form-error.tsx';
import { Link } from '../components/link.tsx';
import { PanelHeader } from '../components/panel-header.tsx';
import { SecretDialog } from '../components/secret-dialog.tsx';
import { navigate } from '../router.ts';
import { useSubmit } from '../use-submit.ts';
import { projectPath, type ProjectContext } from './project-context.ts';
import { t } from '../i18n.ts';
import type { MessageKey } from '../../../src/i18n/catalogues.ts';

const TYPE_EXPLANATIONS = {
  web: { title: 'console.registerClient.web.title', text: 'console.registerClient.web.text' },
  spa: { title: 'console.registerClient.spa.title', text: 'console.registerClient.spa.text' },
  native: { title: 'console.registerClient.native.title', text: 'console.registerClient.native.text' },
} as const satisfies Record<ClientType, { title: MessageKey; text: MessageKey }>;

export function RegisterClientPanel({ project }: ProjectContext) {
  const [clientType, setClientType] = useState<ClientType>('web');
  const [displayName, setDisplayName] = useState('');
  const [description, setDescription] = useState('');
  const [draft, setDraft] = useState<ConfigDraft>(emptyDraft);
  const [attempted, setAttempted] = useState(false);
  const { busy, error, clearError, submit: send } = useSubmit();
  const [created, setCreated] = useState<{ client: Client; secret: NewSecret } | null>(null);

  const problems: Record<string, string> = { ...configProblems(clientType, draft) };
  const nameProblem = displayNameProblem(displayName);
  if (nameProblem) problems.displayName = nameProblem;
  const descProblem = descriptionProblem(description);
  if (descProblem) problems.description = descProblem;

  // Before the first attempt, only what the person has typed is judged; empty required fields wait for submit.
  const typed: Record<string, boolean> = {
    displayName: displayName !== '',
    description: description !== '',
    redirectUris: uriLines(draft.redirectUris).length > 0,
    postLogoutRedirectUris: uriLines(draft.postLogoutRedirectUris).length > 0,
    scopeWhitelist: true,
    requirePkce: true,
  };
  const shown: Record<string, string> = problemsByField(error?.fieldErrors ?? {});
  for (const [field, message] of Object.entries(problems)) if (attempted || typed[field]) shown[field] = message;

  const chooseType = (type: ClientType) => {
    setClientType(type);
    setDraft((current) => fitDraftToType(current, type));
  };

  const register = send(async () => {
    const body = {
      clientType,
      displayName: displayName.trim(),
      ...(description.trim() ? { description: description.trim() } : {}),
      ...bodyFromDraft(fitDraftToType(draft, clientType)),
    };
    const result = await unwrap(api.POST('/projects/{projectId}/clients', { params: { path: { projectId: project.projectId } }, body }));
    if (result.secret) setCreated({ client: result.client, secret: result.secret });
    else navigate(clientPath(result.client));
  });
  const submit = (event: Event) => {
    event.preventDefault();
    setAttempted(true);
    clearError();
    if (Object.keys(problems).length > 0) focusFirstInvalid(event.currentTarget as HTMLFormElement);
    else void register();
  };

  const clientPath = (client: Client) => projectPath(project, `/clients/${encodeURIComponent(client.clientId)}`);

  return (
    <section>
      <PanelHeader title={t('console.registerClient.title')}>
        <p class="muted">{t('console.registerClient.intro')}</p>
      </PanelHeader>
      <form class="card form-card" onSubmit={submit} noValidate>
        <FormError error={error} fieldsShown />
        <fieldset>
          <legend>{t('console.registerClient.type')}</legend>
          <div class="type-options">
            {CLIENT_TYPES.map((type) => (
              <label class={`type-option${clientType === type ? ' selected' : ''}`} key={type}>
                <input type="radio" name="clientType" value={type} checked={clientType === type} onChange={() => chooseType(type)} />
                <span>
                  <strong>{t(TYPE_EXPLANATIONS[type].title)}</strong> <code>{type}</code>
                  <span class="small muted block">{t(TYPE_EXPLANATIONS[type].text)}</span>
                </span>
              </label>
            ))}
          </div>
          <p class="field-hint">{t('console.registerClient.typeFixed')}</p>
        </fieldset>
        <TextField label={t('console.clientDetails.displayName')} value={displayName} onValue={setDisplayName} required hint={t('console.registerClient.displayNameHint')} error={shown.displayName} />
        <TextAreaField label={t('console.registerClient.description')} value={description} onValue={setDescription} rows={2} class="prose-input" error={shown.description} />
        <ClientConfigFields clientType={clientType} draft={draft} onChange={setDraft} errors={shown} />
        <div class="actions form-actions">
          <button type="submit" class="button button-primary" disabled={busy}>
            {t(busy ? 'console.registerClient.busy' : 'console.clients.register')}
          </button>
          <Link to={projectPath(project, '/clients')} class="button">
            {t('console.common.cancel')}
          </Link>
        </div>
      </form>
      <SecretDialog
        title={t('console.registerClient.registered')}
        secret={created?.secret ?? null}
        clientId={created?.client.clientId ?? ''}
        onClose={() => {
          const client = created?.client;
          setCreated(null);
          if (client) navigate(clientPath(client));
        }}
      />
    </section>
  );
}

export function focusFirstInvalid(form: HTMLFormElement): void {
  window.setTimeout(() => form.querySelector<HTMLElement>('[aria-invalid="true"], fieldset[aria-describedby] input:not([disabled])')?.focus(), 0);
}

import { useState } from 'preact/hooks';
import { api, unwrap, type ApiError } from '../api/client.ts';
import type { Project } from '../api/types.ts';
import { Dialog } from '../components/dialog.tsx';
import { TextAreaField, TextField } from '../components/field.tsx';
import { FormError } from '../components/form-error.tsx';
import { toApiError } from '../use-resource.ts';
import { t } from '../i18n.ts';

export function CreateProjectDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (project: Project) => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const nameProblem = name.trim() === '' ? t('console.createProject.nameMissing') : undefined;
  const [attempted, setAttempted] = useState(false);

  const close = () => {
    setName('');
    setDescription('');
    setError(undefined);
    setAttempted(false);
    onClose();
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    setAttempted(true);
    if (nameProblem) return;
    setBusy(true);
    setError(undefined);
    try {
      const body = description.trim() ? { name: name.trim(), description: description.trim() } : { name: name.trim() };
      const { project } = await unwrap(api.POST('/projects', { body }));
      close();
      onCreated(project);
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} title={t('console.createProject.title')} onClose={close}>
      <form onSubmit={submit} noValidate>
        <FormError error={error} fieldsShown />
        <TextField label={t('console.createProject.name')} value={name} onValue={setName} required error={error?.fieldErrors.name ?? (attempted ? nameProblem : undefined)} />
        <TextAreaField
          label={t('console.createProject.description')}
          value={description}
          onValue={setDescription}
          rows={3}
          class="prose-input"
          error={error?.fieldErrors.description}
        />
        <p class="small muted">{t('console.createProject.owner')}</p>
        <div class="actions dialog-actions">
          <button type="button" class="button" onClick={close}>
            {t('console.createProject.cancel')}
          </button>
          <button type="submit" class="button button-primary" disabled={busy}>
            {busy ? t('console.createProject.busy') : t('console.createProject.submit')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

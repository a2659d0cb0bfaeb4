import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';
import type { Project } from '../api/types.ts';
import { Dialog } from '../components/dialog.tsx';
import { DialogActions } from '../components/dialog-actions.tsx';
import { TextAreaField, TextField } from '../components/field.tsx';
import { FormError } from '../components/form-error.tsx';
import { useSubmit } from '../use-submit.ts';
import { t } from '../i18n.ts';

export function CreateProjectDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (project: Project) => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const nameProblem = name.trim() === '' ? t('console.createProject.nameMissing') : undefined;
  const [attempted, setAttempted] = useState(false);
  const dialog = useSubmit(onClose, () => {
    setName('');
    setDescription('');
    setAttempted(false);
  });

  const create = dialog.submit(async () => {
    const body = description.trim() ? { name: name.trim(), description: description.trim() } : { name: name.trim() };
    const { project } = await unwrap(api.POST('/projects', { body }));
    dialog.close();
    onCreated(project);
  });
  const submit = (event: Event) => {
    event.preventDefault();
    setAttempted(true);
    if (!nameProblem) void create();
  };

  return (
    <Dialog open={open} title={t('console.createProject.title')} onClose={dialog.close}>
      <form onSubmit={submit} noValidate>
        <FormError error={dialog.error} fieldsShown />
        <TextField label={t('console.createProject.name')} value={name} onValue={setName} required error={dialog.fieldErrors.name ?? (attempted ? nameProblem : undefined)} />
        <TextAreaField
          label={t('console.createProject.description')}
          value={description}
          onValue={setDescription}
          rows={3}
          class="prose-input"
          error={dialog.fieldErrors.description}
        />
        <p class="small muted">{t('console.createProject.owner')}</p>
        <DialogActions onCancel={dialog.close} cancelLabel={t('console.createProject.cancel')} label={t('console.createProject.submit')} busyLabel={t('console.createProject.busy')} busy={dialog.busy} />
      </form>
    </Dialog>
  );
}

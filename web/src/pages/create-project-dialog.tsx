import { useState } from 'preact/hooks';
import { api, unwrap, type ApiError } from '../api/client.ts';
import type { Project } from '../api/types.ts';
import { Dialog } from '../components/dialog.tsx';
import { TextAreaField, TextField } from '../components/field.tsx';
import { FormError } from '../components/form-error.tsx';
import { toApiError } from '../use-resource.ts';

export function CreateProjectDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (project: Project) => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const nameProblem = name.trim() === '' ? 'A project needs a name.' : undefined;
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
    <Dialog open={open} title="New project" onClose={close}>
      <form onSubmit={submit} noValidate>
        <FormError error={error} fieldsShown />
        <TextField label="Name" value={name} onValue={setName} required error={error?.fieldErrors.name ?? (attempted ? nameProblem : undefined)} />
        <TextAreaField
          label="Description (optional)"
          value={description}
          onValue={setDescription}
          rows={3}
          class="prose-input"
          error={error?.fieldErrors.description}
        />
        <p class="small muted">You become the project's owner. You can add members afterwards.</p>
        <div class="actions dialog-actions">
          <button type="button" class="button" onClick={close}>
            Cancel
          </button>
          <button type="submit" class="button button-primary" disabled={busy}>
            {busy ? 'Creating…' : 'Create project'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

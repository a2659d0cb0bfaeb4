import { DialogActions } from '../components/dialog-actions.tsx';
import { TextField } from '../components/field.tsx';
import { FormError } from '../components/form-error.tsx';
import type { Submission } from '../use-submit.ts';
import { t } from '../i18n.ts';

interface FactorNameFormProps {
  /** The catalogue keys of the dialog: `${texts}.intro`, `.name`, `.defaultName`, `.nameHint`, `.cancel`. */
  texts: 'console.addAuthenticator' | 'console.addPasskey';
  name: string;
  onName: (name: string) => void;
  submission: Submission;
  onSubmit: (event: Event) => void;
  label: string;
  busyLabel: string;
}

/** The first step of adding a factor: naming it (left empty, it takes the default name shown). */
export function FactorNameForm({ texts, name, onName, submission, onSubmit, label, busyLabel }: FactorNameFormProps) {
  return (
    <form onSubmit={onSubmit} noValidate>
      <p>{t(`${texts}.intro`)}</p>
      <FormError error={submission.error} fieldsShown />
      <TextField label={t(`${texts}.name`)} name="name" value={name} onValue={onName} placeholder={t(`${texts}.defaultName`)} hint={t(`${texts}.nameHint`)} error={submission.fieldErrors.name} />
      <DialogActions onCancel={submission.close} cancelLabel={t(`${texts}.cancel`)} label={label} busyLabel={busyLabel} busy={submission.busy} />
    </form>
  );
}

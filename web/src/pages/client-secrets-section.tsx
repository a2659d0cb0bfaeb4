import { useState } from 'preact/hooks';
import { secretIsUsable } from '../../../src/domain/client-secrets.ts';
import { SECRET_POLICY } from '../../../src/domain/clients.ts';
import { api, unwrap } from '../api/client.ts';
import type { NewSecret, SecretInfo } from '../api/types.ts';
import { CLIENT_ALL_FIELDS } from '../client-fields.ts';
import { Badge } from '../components/badge.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { DataTable } from '../components/data-table.tsx';
import { Field } from '../components/field.tsx';
import { RetryNotice } from '../components/retry-notice.tsx';
import { SecretDialog } from '../components/secret-dialog.tsx';
import { formatDuration, Time } from '../components/time.tsx';
import { RowButton } from '../components/row-button.tsx';
import { useSession } from '../session.ts';
import { useConflictRetry } from '../use-conflict-retry.ts';
import { clientParams, fetchClient, type ClientSectionProps } from './client-editing.ts';
import { t, tWith } from '../i18n.ts';

const STATUS_TONE = { active: 'success', retiring: 'warning', revoked: 'neutral' } as const;
const STATUS_KEY = { active: 'console.secrets.active', retiring: 'console.secrets.retiring', revoked: 'console.secrets.revoked' } as const;
const GRACE_PRESETS = [0, 300, 3600, 86_400, 604_800];

const isUsable = (secret: SecretInfo, now: number) => secretIsUsable({ status: secret.status, expiresAt: secret.expiresAt === null ? null : Date.parse(secret.expiresAt) }, now);

/** A web client's secrets: rotate with a grace period for the old one, revoke, and when each was last used. */
export function ClientSecretsSection({ client, writable, onNewVersion }: ClientSectionProps) {
  const { secretPolicy } = useSession();
  const [rotating, setRotating] = useState(false);
  const [grace, setGrace] = useState(secretPolicy.defaultGraceSeconds);
  const [revoking, setRevoking] = useState<SecretInfo | null>(null);
  const [fresh, setFresh] = useState<NewSecret | null>(null);
  const conflicts = useConflictRetry({ fetchLatest: () => fetchClient(client.projectId, client.clientId), onNewVersion, fields: CLIENT_ALL_FIELDS });

  const now = Date.now();
  const usable = client.secrets.filter((secret) => isUsable(secret, now));
  const retiring = client.secrets.find((secret) => secret.status === 'retiring' && isUsable(secret, now));
  const atLimit = usable.length >= SECRET_POLICY.maxUsableSecrets;
  const graceOptions = [...new Set([...GRACE_PRESETS, secretPolicy.defaultGraceSeconds, secretPolicy.maxGraceSeconds])]
    .filter((seconds) => seconds <= secretPolicy.maxGraceSeconds)
    .sort((a, b) => a - b);
  const sorted = [...client.secrets].sort((a, b) => statusOrder(a) - statusOrder(b) || b.createdAt.localeCompare(a.createdAt));

  const rotate = async () => {
    await conflicts.run(
      t('console.secrets.rotateAction', { grace: formatDuration(grace) }),
      client,
      (base) =>
        unwrap(
          api.POST('/projects/{projectId}/clients/{clientId}/secrets/rotate', {
            params: clientParams(base),
            body: { clientVersion: base.clientVersion, gracePeriodSeconds: grace },
          }),
        ),
      (result) => {
        onNewVersion(result.client);
        // Close the rotation dialog in the same render that opens the secret, so focus moves in order.
        setRotating(false);
        setFresh(result.secret ?? null);
      },
    );
  };

  const revoke = async (secret: SecretInfo) => {
    await conflicts.run(
      t('console.secrets.revokeAction', { secretId: secret.secretId }),
      client,
      (base) =>
        unwrap(
          api.POST('/projects/{projectId}/clients/{clientId}/secrets/{secretId}/revoke', {
            params: { path: { ...clientParams(base).path, secretId: secret.secretId } },
            body: { clientVersion: base.clientVersion },
          }),
        ),
      (result) => onNewVersion(result.client),
    );
  };

  return (
    <section class="card section-card">
      <div class="section-title-row">
        <h3>{t('console.secrets.title')}</h3>
        {writable && (
          <button type="button" class="button button-small" onClick={() => setRotating(true)} disabled={atLimit}>
            {t('console.secrets.rotate')}
          </button>
        )}
      </div>
      <p class="small muted">
        {tWith('console.secrets.intro', { lastUsed: <strong>{t('console.secrets.lastUsed')}</strong> })}
      </p>
      {writable && retiring && atLimit && (
        <div class="alert alert-info">
          <p>
            {tWith('console.secrets.atLimit', { time: <Time value={retiring.expiresAt} />, max: SECRET_POLICY.maxUsableSecrets })}
          </p>
        </div>
      )}
      <RetryNotice pending={conflicts.pending} subject={t('console.client.thisClient')} />
      {sorted.length === 0 ? (
        <p class="muted">{t('console.secrets.none')}</p>
      ) : (
        <DataTable caption={t('console.secrets.caption', { name: client.displayName })} columns={[t('console.secrets.secretId'), t('console.secrets.status'), t('console.secrets.created'), t('console.secrets.expires'), t('console.secrets.lastUsed')]} actions={writable && t('console.users.actions')}>
          {sorted.map((secret) => (
            <tr key={secret.secretId}>
              <th scope="row" data-label={t('console.secrets.secretId')}>
                <code>{secret.secretId}</code>
              </th>
              <td data-label={t('console.secrets.status')}>
                <Badge tone={STATUS_TONE[secret.status]}>{t(STATUS_KEY[secret.status])}</Badge>
              </td>
              <td data-label={t('console.secrets.created')}>
                <Time value={secret.createdAt} />
              </td>
              <td data-label={t('console.secrets.expires')}>
                <Time value={secret.expiresAt} empty={secret.status === 'active' ? t('console.secrets.noExpiry') : '—'} />
              </td>
              <td data-label={t('console.secrets.lastUsed')}>
                <Time value={secret.lastUsedAt} empty={t('console.secrets.never')} />
              </td>
              {writable && (
                <td data-label={t('console.users.actions')}>
                  {secret.status !== 'revoked' && (
                    <RowButton onClick={() => setRevoking(secret)} label={t('console.secrets.revokeLabel', { secretId: secret.secretId })}>
                      {t('console.secrets.revoke')}
                    </RowButton>
                  )}
                </td>
              )}
            </tr>
          ))}
        </DataTable>
      )}

      <ConfirmDialog open={rotating} title={t('console.secrets.rotateTitle')} confirmLabel={t('console.secrets.rotate')} onConfirm={rotate} onClose={() => setRotating(false)}>
        <p>{t('console.secrets.rotateText')}</p>
        <Field label={t('console.secrets.grace')} hint={t('console.secrets.graceHint', { default: formatDuration(secretPolicy.defaultGraceSeconds), max: formatDuration(secretPolicy.maxGraceSeconds) })}>
          {(control) => (
            <select {...control} value={String(grace)} onChange={(e) => setGrace(Number(e.currentTarget.value))}>
              {graceOptions.map((seconds) => (
                <option key={seconds} value={String(seconds)}>
                  {seconds === 0 ? t('console.secrets.graceNone') : formatDuration(seconds)}
                  {seconds === secretPolicy.defaultGraceSeconds ? t('console.secrets.default') : ''}
                  {seconds === secretPolicy.maxGraceSeconds ? t('console.secrets.maximum') : ''}
                </option>
              ))}
            </select>
          )}
        </Field>
        {grace === 0 && (
          <p class="field-error">{t('console.secrets.graceNoneWarning')}</p>
        )}
      </ConfirmDialog>

      <ConfirmDialog
        open={revoking !== null}
        title={t('console.secrets.revokeTitle')}
        confirmLabel={t('console.secrets.revokeConfirm')}
        danger
        onConfirm={() => (revoking ? revoke(revoking) : Promise.resolve())}
        onClose={() => setRevoking(null)}
      >
        <p>{tWith('console.secrets.revokeText', { secretId: <code>{revoking?.secretId}</code> })}</p>
        {revoking?.status === 'active' && (
          <p>
            <strong>{t('console.secrets.activeWarning')}</strong> {t(retiring ? 'console.secrets.noLongLived' : 'console.secrets.noOther')}
          </p>
        )}
      </ConfirmDialog>

      <SecretDialog title={t('console.secrets.newTitle')} secret={fresh} clientId={client.clientId} onClose={() => setFresh(null)} />
    </section>
  );
}

const statusOrder = (secret: SecretInfo) => ({ active: 0, retiring: 1, revoked: 2 })[secret.status];

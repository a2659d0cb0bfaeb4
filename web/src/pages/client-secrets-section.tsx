import { useState } from 'preact/hooks';
import { secretIsUsable } from '../../../src/domain/client-secrets.ts';
import { SECRET_POLICY } from '../../../src/domain/clients.ts';
import { api, unwrap } from '../api/client.ts';
import type { NewSecret, SecretInfo } from '../api/types.ts';
import { CLIENT_ALL_FIELDS } from '../client-fields.ts';
import { Badge } from '../components/badge.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { Field } from '../components/field.tsx';
import { RetryNotice } from '../components/retry-notice.tsx';
import { SecretDialog } from '../components/secret-dialog.tsx';
import { formatDuration, Time } from '../components/time.tsx';
import { useSession } from '../session.ts';
import { useConflictRetry } from '../use-conflict-retry.ts';
import { clientParams, fetchClient, type ClientSectionProps } from './client-editing.ts';

const STATUS_TONE = { active: 'success', retiring: 'warning', revoked: 'neutral' } as const;
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
      `rotate the secret (${formatDuration(grace)} grace)`,
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
      `revoke secret ${secret.secretId}`,
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
        <h3>Client secrets</h3>
        {writable && (
          <button type="button" class="button button-small" onClick={() => setRotating(true)} disabled={atLimit}>
            Rotate secret
          </button>
        )}
      </div>
      <p class="small muted">
        Sesame keeps only digests: a secret is shown once, when it is made. After a rotation the old secret keeps working for its grace period,
        so relying parties can switch without downtime. <strong>Last used</strong> shows whether a retiring secret is still in use.
      </p>
      {writable && retiring && atLimit && (
        <div class="alert alert-info">
          <p>
            A retiring secret is usable until <Time value={retiring.expiresAt} />. Sesame allows at most {SECRET_POLICY.maxUsableSecrets} usable secrets,
            so revoke the retiring one before rotating again.
          </p>
        </div>
      )}
      <RetryNotice pending={conflicts.pending} subject="this client" />
      {sorted.length === 0 ? (
        <p class="muted">This client has no secret.</p>
      ) : (
        <table class="data-table">
          <caption class="visually-hidden">Secrets of {client.displayName}</caption>
          <thead>
            <tr>
              <th scope="col">Secret ID</th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
              <th scope="col">Expires</th>
              <th scope="col">Last used</th>
              {writable && (
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {sorted.map((secret) => (
              <tr key={secret.secretId}>
                <th scope="row" data-label="Secret ID">
                  <code>{secret.secretId}</code>
                </th>
                <td data-label="Status">
                  <Badge tone={STATUS_TONE[secret.status]}>{secret.status}</Badge>
                </td>
                <td data-label="Created">
                  <Time value={secret.createdAt} />
                </td>
                <td data-label="Expires">
                  <Time value={secret.expiresAt} empty={secret.status === 'active' ? 'does not expire' : '—'} />
                </td>
                <td data-label="Last used">
                  <Time value={secret.lastUsedAt} empty="never" />
                </td>
                {writable && (
                  <td data-label="Actions">
                    {secret.status !== 'revoked' && (
                      <button type="button" class="button button-small" onClick={() => setRevoking(secret)} aria-label={`Revoke secret ${secret.secretId}`}>
                        Revoke
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <ConfirmDialog open={rotating} title="Rotate the client secret" confirmLabel="Rotate secret" onConfirm={rotate} onClose={() => setRotating(false)}>
        <p>Sesame makes a new secret and shows it once. The current secret becomes retiring and keeps working for the grace period you choose.</p>
        <Field label="Grace period for the current secret" hint={`Default ${formatDuration(secretPolicy.defaultGraceSeconds)}, at most ${formatDuration(secretPolicy.maxGraceSeconds)}.`}>
          {(control) => (
            <select {...control} value={String(grace)} onChange={(e) => setGrace(Number(e.currentTarget.value))}>
              {graceOptions.map((seconds) => (
                <option key={seconds} value={String(seconds)}>
                  {seconds === 0 ? 'None: revoke the current secret at once' : formatDuration(seconds)}
                  {seconds === secretPolicy.defaultGraceSeconds ? ' (default)' : ''}
                  {seconds === secretPolicy.maxGraceSeconds ? ' (maximum)' : ''}
                </option>
              ))}
            </select>
          )}
        </Field>
        {grace === 0 && (
          <p class="field-error">Relying parties still using the current secret are refused as soon as you rotate.</p>
        )}
      </ConfirmDialog>

      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this secret?"
        confirmLabel="Revoke secret"
        danger
        onConfirm={() => (revoking ? revoke(revoking) : Promise.resolve())}
        onClose={() => setRevoking(null)}
      >
        <p>
          Secret <code>{revoking?.secretId}</code> stops working at once; relying parties that still send it are refused. This cannot be undone.
        </p>
        {revoking?.status === 'active' && (
          <p>
            <strong>It is the active secret:</strong> the client has no other {retiring ? 'long-lived ' : ''}secret until you rotate.
          </p>
        )}
      </ConfirmDialog>

      <SecretDialog title="New client secret" secret={fresh} clientId={client.clientId} onClose={() => setFresh(null)} />
    </section>
  );
}

const statusOrder = (secret: SecretInfo) => ({ active: 0, retiring: 1, revoked: 2 })[secret.status];

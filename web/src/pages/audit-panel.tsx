import { useState } from 'preact/hooks';
import { t } from '../i18n.ts';
import { api, unwrap } from '../api/client.ts';
import type { AuditLogEntry } from '../api/types.ts';
import { formatValue } from '../changes.ts';
import { Badge } from '../components/badge.tsx';
import { LoadError, Loading } from '../components/load-state.tsx';
import { PanelHeader } from '../components/panel-header.tsx';
import { Time } from '../components/time.tsx';
import { sessionUser } from '../session.ts';
import { useResource } from '../use-resource.ts';
import type { ProjectContext } from './project-context.ts';

const PAGE_SIZE = 20;

/** The project's audit trail, newest first, a page at a time (older pages by cursor). */
export function AuditPanel({ project }: ProjectContext) {
  // cursors[i] is the `before` of page i; page 0 starts at the newest entry.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const page = cursors.length - 1;
  const before = cursors[page];
  const entries = useResource(`audit:${project.projectId}:${before ?? ''}`, () => {
    const query = before ? { limit: String(PAGE_SIZE), before } : { limit: String(PAGE_SIZE) };
    return unwrap(api.GET('/projects/{projectId}/audit-logs', { params: { path: { projectId: project.projectId }, query } })).then((r) => r.auditLogs);
  });
  // Entries name their actor by subject; members (and the signed-in person) are shown by name instead.
  const members = useResource(`audit-members:${project.projectId}`, () =>
    unwrap(api.GET('/projects/{projectId}/members', { params: { path: { projectId: project.projectId } } })).then((r) => r.members),
  );
  const me = sessionUser();
  const people = new Map<string, string>((members.data ?? []).map((m) => [m.subjectId, `${m.displayName} (${m.account})`]));
  if (me) people.set(me.subjectId, `${me.displayName} (${me.account})`);
  const actorName = (entry: AuditLogEntry) =>
    entry.actorAccount ?? (entry.actorSubjectId ? (people.get(entry.actorSubjectId) ?? entry.actorSubjectId) : t('console.audit.system'));
  const list = entries.data ?? [];
  const last = list[list.length - 1];
  const hasOlder = list.length === PAGE_SIZE && last !== undefined;

  return (
    <section>
      <PanelHeader title={t('console.project.tab.audit')}>
        <p class="muted small">{t('console.audit.intro')}</p>
      </PanelHeader>
      {entries.error && <LoadError error={entries.error} onRetry={() => void entries.reload()} />}
      {!entries.data && !entries.error && <Loading what={t('console.what.auditLog')} />}
      {entries.data && list.length === 0 && <p class="muted">{t(page === 0 ? 'console.audit.empty' : 'console.audit.noOlder')}</p>}
      {list.length > 0 && (
        <table class="data-table audit-table">
          <caption class="visually-hidden">{t('console.audit.caption', { name: project.name, page: page + 1 })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('console.audit.when')}</th>
              <th scope="col">{t('console.audit.who')}</th>
              <th scope="col">{t('console.audit.action')}</th>
              <th scope="col">{t('console.audit.target')}</th>
              <th scope="col">{t('console.audit.changes')}</th>
            </tr>
          </thead>
          <tbody>
            {list.map((entry) => (
              <tr key={entry.auditId}>
                <td data-label={t('console.audit.when')}>
                  <Time value={entry.at} precise />
                </td>
                <td data-label={t('console.audit.who')}>
                  <span class="block">{actorName(entry)}</span>
                  <span class="small muted">
                    {entry.ip ? t('console.audit.viaFrom', { surface: entry.surface, ip: entry.ip }) : t('console.audit.via', { surface: entry.surface })}
                  </span>
                  {entry.viaClientId && (
                    <span class="block small" title={entry.viaClientId}>
                      {t('console.audit.byAssistant', { assistant: entry.viaClientName ?? entry.viaClientId })}
                    </span>
                  )}
                </td>
                <td data-label={t('console.audit.action')}>
                  <Badge>{entry.action}</Badge>
                </td>
                <td data-label={t('console.audit.target')}>
                  <span class="small muted">{entry.targetType}</span> <code>{entry.targetId}</code>
                </td>
                <td data-label={t('console.audit.changes')}>
                  <AuditChanges entry={entry} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav class="pager actions" aria-label={t('console.audit.pages')}>
        <button type="button" class="button" disabled={page === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
          {t('console.audit.newer')}
        </button>
        <span class="small muted">{t('console.audit.page', { page: page + 1 })}</span>
        <button type="button" class="button" disabled={!hasOlder} onClick={() => last && setCursors([...cursors, auditCursor(last)])}>
          {t('console.audit.older')}
        </button>
      </nav>
    </section>
  );
}

/** The `before` value that continues exactly after an entry. */
export const auditCursor = (entry: AuditLogEntry) => entry.auditId;

function AuditChanges({ entry }: { entry: AuditLogEntry }) {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const changed = keys.filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
  if (changed.length === 0) return <span class="muted">—</span>;
  return (
    <ul class="change-list">
      {changed.map((key) => (
        <li key={key}>
          <code>{key}</code>:{' '}
          {key in before && entry.before !== null ? (
            <>
              <del>{shorten(formatValue(before[key]))}</del> → <ins>{shorten(formatValue(after[key]))}</ins>
            </>
          ) : (
            <span>{shorten(formatValue(after[key]))}</span>
          )}
        </li>
      ))}
    </ul>
  );
}

const shorten = (text: string) => (text.length > 120 ? `${text.slice(0, 117)}…` : text);

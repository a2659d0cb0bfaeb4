import { useState } from 'preact/hooks';
import { AUDIT_ACTIONS, actionName, surfaceName, targetTypeName } from '../audit-names.ts';
import type { AuditLogEntry } from '../api/types.ts';
import { formatValue } from '../changes.ts';
import { Badge } from '../components/badge.tsx';
import { LoadState } from '../components/load-state.tsx';
import { Time } from '../components/time.tsx';
import { t } from '../i18n.ts';
import { useResource } from '../use-resource.ts';

const PAGE_SIZE = 20;

export interface AuditQuery {
  limit: string;
  before?: string;
  action?: string;
  actorSubjectId?: string;
}

export interface AuditPerson {
  subjectId: string;
  displayName: string;
  account: string;
}

interface AuditTrailProps {
  /** Names the trail, so each trail and filter keeps its own pages. */
  trailKey: string;
  load: (query: AuditQuery) => Promise<AuditLogEntry[]>;
  caption: (page: number) => string;
  /** The people the person filter offers. */
  people: AuditPerson[];
}

/** An audit trail, newest first, a page at a time (older pages by cursor), filtered by action and by person. */
export function AuditTrail({ trailKey, load, caption, people }: AuditTrailProps) {
  const [filters, setFilters] = useState({ action: '', actorSubjectId: '' });
  // cursors[i] is the `before` of page i; page 0 starts at the newest entry.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const page = cursors.length - 1;
  const before = cursors[page];
  const entries = useResource(`${trailKey}:${filters.action}:${filters.actorSubjectId}:${before ?? ''}`, () =>
    load({
      limit: String(PAGE_SIZE),
      ...(before ? { before } : {}),
      ...(filters.action ? { action: filters.action } : {}),
      ...(filters.actorSubjectId ? { actorSubjectId: filters.actorSubjectId } : {}),
    }),
  );
  const names = new Map(people.map((person) => [person.subjectId, `${person.displayName} (${person.account})`]));
  const actorName = (entry: AuditLogEntry) => {
    if (entry.actorDisplayName && entry.actorAccount) {
      return (
        <>
          {entry.actorDisplayName} <span class="muted">({entry.actorAccount})</span>
        </>
      );
    }
    if (!entry.actorSubjectId) return t('console.audit.system');
    return entry.actorAccount ?? names.get(entry.actorSubjectId) ?? <code>{entry.actorSubjectId}</code>;
  };
  const list = entries.data ?? [];
  const last = list[list.length - 1];
  const hasOlder = list.length === PAGE_SIZE && last !== undefined;
  const filtered = filters.action !== '' || filters.actorSubjectId !== '';

  const applyFilters = (event: Event) => {
    event.preventDefault();
    // Read from the form itself: a submit right after choosing must not see the choice of the render before.
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setFilters({ action: String(form.get('action') ?? ''), actorSubjectId: String(form.get('actorSubjectId') ?? '') });
    setCursors([undefined]);
  };

  return (
    <>
      <form class="audit-filters" aria-label={t('console.audit.filters')} onSubmit={applyFilters}>
        <div class="field">
          <label for={`${trailKey}-action`}>{t('console.audit.filterAction')}</label>
          <select id={`${trailKey}-action`} name="action" defaultValue={filters.action}>
            <option value="">{t('console.audit.anyAction')}</option>
            {AUDIT_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {actionName(action)}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for={`${trailKey}-person`}>{t('console.audit.filterPerson')}</label>
          <select id={`${trailKey}-person`} name="actorSubjectId" defaultValue={filters.actorSubjectId}>
            <option value="">{t('console.audit.anyPerson')}</option>
            {people.map((person) => (
              <option key={person.subjectId} value={person.subjectId}>
                {person.displayName} ({person.account})
              </option>
            ))}
          </select>
        </div>
        <button type="submit" class="button">
          {t('console.audit.apply')}
        </button>
      </form>
      <LoadState resource={entries} what={t('console.what.auditLog')} />
      {entries.data && list.length === 0 && <p class="muted">{t(page > 0 ? 'console.audit.noOlder' : filtered ? 'console.audit.noMatch' : 'console.audit.empty')}</p>}
      {list.length > 0 && (
        <table class="data-table audit-table">
          <caption class="visually-hidden">{caption(page + 1)}</caption>
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
                    {entry.ip ? t('console.audit.viaFrom', { surface: surfaceName(entry.surface), ip: entry.ip }) : t('console.audit.via', { surface: surfaceName(entry.surface) })}
                  </span>
                  {entry.viaClientId && (
                    <span class="block small" title={entry.viaClientId}>
                      {t('console.audit.byAssistant', { assistant: entry.viaClientName ?? entry.viaClientId })}
                    </span>
                  )}
                </td>
                <td data-label={t('console.audit.action')}>
                  <Badge>
                    <span title={entry.action}>{actionName(entry.action)}</span>
                  </Badge>
                </td>
                <td data-label={t('console.audit.target')}>
                  <span class="small muted">{targetTypeName(entry.targetType)}</span>{' '}
                  {entry.targetName ? <span title={entry.targetId}>{entry.targetName}</span> : <code>{entry.targetId}</code>}
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
    </>
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

import { Link } from '../components/link.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { AccountApplicationsPanel } from './account-applications-panel.tsx';
import { AccountFactorsPanel } from './account-factors-panel.tsx';
import { AccountIdentitiesSection } from './account-identities-section.tsx';
import { AccountProfilePanel } from './account-profile-panel.tsx';
import { AccountSessionsPanel } from './account-sessions-panel.tsx';
import { t } from '../i18n.ts';


export type AccountSection = 'profile' | 'sessions' | 'applications' | 'security' | 'identities';

export const ACCOUNT_SECTIONS: { id: AccountSection; label: () => string; path: string }[] = [
  { id: 'profile', label: () => t('console.account.profile'), path: '/account' },
  { id: 'sessions', label: () => t('console.account.sessions'), path: '/account/sessions' },
  { id: 'applications', label: () => t('console.account.applications'), path: '/account/applications' },
  { id: 'security', label: () => t('console.account.security'), path: '/account/security' },
  { id: 'identities', label: () => t('console.account.identities'), path: '/account/identities' },
];

/** The section a path below /console names, or undefined when it is not one of My account's. */
export function accountSectionFor(path: string): AccountSection | undefined {
  return ACCOUNT_SECTIONS.find((section) => section.path === path || `${section.path}/` === path)?.id;
}

/** My account: every signed-in person's own page, whatever their projects or role. */
export function AccountLayout({ section }: { section: AccountSection }) {
  return (
    <>
      <PageHeader title={t('console.account.title')}>
        <p class="muted">{t('console.account.intro')}</p>
      </PageHeader>
      <nav class="tabs" aria-label={t('console.account.sections')}>
        {ACCOUNT_SECTIONS.map((entry) => (
          <Link key={entry.id} to={entry.path} aria-current={entry.id === section ? 'page' : undefined}>
            {entry.label()}
          </Link>
        ))}
      </nav>
      <div class="tab-panel">{panelFor(section)}</div>
    </>
  );
}

function panelFor(section: AccountSection) {
  switch (section) {
    case 'profile':
      return <AccountProfilePanel />;
    case 'sessions':
      return <AccountSessionsPanel />;
    case 'applications':
      return <AccountApplicationsPanel />;
    case 'security':
      return <AccountFactorsPanel />;
    case 'identities':
      return <AccountIdentitiesSection />;
  }
}

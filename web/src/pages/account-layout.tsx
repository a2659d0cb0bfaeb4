import { Link } from '../components/link.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { AccountApplicationsPanel } from './account-applications-panel.tsx';
import { AccountFactorsPanel } from './account-factors-panel.tsx';
import { AccountIdentitiesSection } from './account-identities-section.tsx';
import { AccountProfilePanel } from './account-profile-panel.tsx';
import { AccountSessionsPanel } from './account-sessions-panel.tsx';
import { t } from '../i18n.ts';

/** The page's text, read from the catalogues (src/i18n) in the console's language each time it is used. */
const TEXT = {
  get title() {
    return t('console.account.title');
  },
  get intro() {
    return t('console.account.intro');
  },
  get sections() {
    return t('console.account.sections');
  },
  get profile() {
    return t('console.account.profile');
  },
  get sessions() {
    return t('console.account.sessions');
  },
  get applications() {
    return t('console.account.applications');
  },
  get security() {
    return t('console.account.security');
  },
  get identities() {
    return t('console.account.identities');
  },
};

export type AccountSection = 'profile' | 'sessions' | 'applications' | 'security' | 'identities';

export const ACCOUNT_SECTIONS: { id: AccountSection; label: () => string; path: string }[] = [
  { id: 'profile', label: () => TEXT.profile, path: '/account' },
  { id: 'sessions', label: () => TEXT.sessions, path: '/account/sessions' },
  { id: 'applications', label: () => TEXT.applications, path: '/account/applications' },
  { id: 'security', label: () => TEXT.security, path: '/account/security' },
  { id: 'identities', label: () => TEXT.identities, path: '/account/identities' },
];

/** The section a path below /console names, or undefined when it is not one of My account's. */
export function accountSectionFor(path: string): AccountSection | undefined {
  return ACCOUNT_SECTIONS.find((section) => section.path === path || `${section.path}/` === path)?.id;
}

/** My account: every signed-in person's own page, whatever their projects or role. */
export function AccountLayout({ section }: { section: AccountSection }) {
  return (
    <>
      <PageHeader title={TEXT.title}>
        <p class="muted">{TEXT.intro}</p>
      </PageHeader>
      <nav class="tabs" aria-label={TEXT.sections}>
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

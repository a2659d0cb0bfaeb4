import type { ComponentChildren } from 'preact';
import { useLayoutEffect } from 'preact/hooks';
import type { SessionUser } from './api/types.ts';
import type { MessageKey } from '../../src/i18n/catalogues.ts';
import { Badge } from './components/badge.tsx';
import { LanguageSwitcher } from './components/language-switcher.tsx';
import { Logo } from './components/logo.tsx';
import { t } from './i18n.ts';
import { Link } from './components/link.tsx';
import { useLocation } from './router.ts';
import { signOut } from './session.ts';
import { ReauthenticateDialog } from './components/reauthenticate-dialog.tsx';

interface NavItem {
  to: string;
  label: MessageKey;
  adminOnly?: boolean;
  /** Whether a path belongs to this entry (marks it the current page). */
  current: (path: string) => boolean;
}

const under = (prefix: string) => (path: string) => path === prefix || path.startsWith(`${prefix}/`);

/** The console's main navigation, one entry a line, in the order shown. */
export const NAV_ITEMS: NavItem[] = [
  { to: '/', label: 'console.nav.projects', current: (path) => path === '/' || path.startsWith('/projects') },
  { to: '/account', label: 'console.nav.myAccount', current: under('/account') },
  { to: '/admin/users', label: 'console.nav.users', adminOnly: true, current: under('/admin/users') },
  { to: '/admin/assistant-grants', label: 'console.nav.assistantGrants', adminOnly: true, current: under('/admin/assistant-grants') },
  { to: '/admin/identity-providers', label: 'console.nav.identityProviders', adminOnly: true, current: under('/admin/identity-providers') },
  { to: '/admin/groups', label: 'console.nav.groups', adminOnly: true, current: under('/admin/groups') },
  { to: '/admin/settings', label: 'console.nav.settings', adminOnly: true, current: under('/admin/settings') },
  { to: '/admin/audit', label: 'console.nav.auditLog', adminOnly: true, current: under('/admin/audit') },
];

/**
 * The frame around every signed-in page: skip link, brand, main navigation and the account. On a wide screen the
 * navigation is a side menu; on a narrow one a single row under the brand that scrolls sideways, every entry one tap away.
 */
export function ConsoleShell({ user, children }: { user: SessionUser; children: ComponentChildren }) {
  const { path } = useLocation();
  useLayoutEffect(showCurrentEntries, [path]);
  return (
    <div class="console-frame">
      <a class="skip-link" href="#main">
        {t('console.skipToContent')}
      </a>
      <header class="topbar">
        <Link to="/" class="brand">
          <Logo />
          Sesame <span class="brand-sub">{t('console.brandSub')}</span>
        </Link>
        <div class="account">
          <span class="account-name">
            {user.displayName} <span class="muted">({user.account})</span>
          </span>
          {user.isAdmin && <Badge tone="accent">{t('console.admin')}</Badge>}
          <LanguageSwitcher signedIn />
          <button type="button" class="button button-small" onClick={() => void signOut()}>
            {t('console.signOut')}
          </button>
        </div>
      </header>
      <nav class="main-nav" aria-label={t('console.nav.label')}>
        <ul>
          {NAV_ITEMS.filter((item) => !item.adminOnly || user.isAdmin).map((item) => (
            <li key={item.to}>
              <Link to={item.to} aria-current={item.current(path) ? 'page' : undefined}>
                {t(item.label)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <ReauthenticateDialog />
      <main id="main" class="content" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}

/** A strip of entries that scrolls sideways (the phone's navigation, a page's tabs) shows its current entry. */
function showCurrentEntries(): void {
  for (const strip of document.querySelectorAll<HTMLElement>('.main-nav ul, .tabs')) {
    const current = strip.querySelector<HTMLElement>('[aria-current="page"]');
    if (!current || strip.scrollWidth <= strip.clientWidth) continue;
    const box = strip.getBoundingClientRect();
    const entry = current.getBoundingClientRect();
    if (entry.left < box.left || entry.right > box.right) strip.scrollLeft += entry.left - box.left - (box.width - entry.width) / 2;
  }
}

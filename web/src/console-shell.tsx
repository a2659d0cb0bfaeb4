import type { ComponentChildren } from 'preact';
import type { SessionUser } from './api/types.ts';
import { Badge } from './components/badge.tsx';
import { LanguageSwitcher } from './components/language-switcher.tsx';
import { t } from './i18n.ts';
import { Link } from './components/link.tsx';
import { useLocation } from './router.ts';
import { signOut } from './session.ts';
import { ReauthenticateDialog } from './components/reauthenticate-dialog.tsx';

/** The frame around every signed-in page: skip link, brand, main navigation and the account. */
export function ConsoleShell({ user, children }: { user: SessionUser; children: ComponentChildren }) {
  const { path } = useLocation();
  const inProjects = path === '/' || path.startsWith('/projects');
  return (
    <>
      <a class="skip-link" href="#main">
        {t('console.skipToContent')}
      </a>
      <header class="topbar">
        <div class="topbar-inner">
          <Link to="/" class="brand">
            <span class="brand-mark" aria-hidden="true" />
            Sesame <span class="brand-sub">{t('console.brandSub')}</span>
          </Link>
          <nav class="main-nav" aria-label={t('console.nav.label')}>
            <Link to="/" aria-current={inProjects ? 'page' : undefined}>
              {t('console.nav.projects')}
            </Link>
            <Link to="/account" aria-current={path === '/account' || path.startsWith('/account/') ? 'page' : undefined}>
              {t('console.nav.myAccount')}
            </Link>
            {user.isAdmin && (
              <Link to="/admin/users" aria-current={path.startsWith('/admin/users') ? 'page' : undefined}>
                {t('console.nav.users')}
              </Link>
            )}
            {user.isAdmin && (
              <Link to="/admin/assistant-grants" aria-current={path.startsWith('/admin/assistant-grants') ? 'page' : undefined}>
                {t('console.nav.assistantGrants')}
              </Link>
            )}
            {user.isAdmin && (
              <Link to="/admin/identity-providers" aria-current={path.startsWith('/admin/identity-providers') ? 'page' : undefined}>
                {t('console.nav.identityProviders')}
              </Link>
            )}
          </nav>
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
        </div>
      </header>
      <ReauthenticateDialog />
      <main id="main" class="content" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}

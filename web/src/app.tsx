import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import { routeChanged } from './route-focus.ts';
import { Loading } from './components/load-state.tsx';
import { ConsoleShell } from './console-shell.tsx';
import { SignInPage } from './pages/sign-in-page.tsx';
import { routeFor } from './routes.tsx';
import { navigate, useLocation } from './router.ts';
import { ENROLMENT_PATH, requireSignIn, useSession } from './session.ts';
import { t, useLocale } from './i18n.ts';

export function App() {
  const session = useSession();
  const location = useLocation();
  // Every component reads its text while rendering: a new language re-renders the app from here.
  useLocale();
  useRouteFocus(location.path);

  useEffect(() => {
    if (session.status === 'signed-out' && location.path !== '/sign-in') requireSignIn(null);
    // A session that may only enrol stays on My account's second-factor section: every other page would be refused.
    if (session.status === 'signed-in' && session.enrolmentRequired && location.path !== ENROLMENT_PATH) navigate(ENROLMENT_PATH, { replace: true });
  }, [session.status, session.enrolmentRequired, location.path]);

  if (location.path === '/sign-in') return <SignInPage />;
  if (session.status !== 'signed-in' || !session.user) {
    return (
      <main id="main" class="boot">
        <Loading what={t('console.theConsole')} />
      </main>
    );
  }
  return <ConsoleShell user={session.user}>{routeFor(location.path, session.user)}</ConsoleShell>;
}

/**
 * Every navigation after the first page load hands focus to the new page's heading (route-focus.ts).
 * A layout effect notes the focus as the new page is committed, before it is painted: a person who tabs
 * into the page as soon as it shows has already moved focus, and the heading must not take it back.
 */
function useRouteFocus(path: string): void {
  const first = useRef(true);
  useLayoutEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    routeChanged();
  }, [path]);
}

import { render } from 'preact';
import '../theme/tokens.css';
import '../theme/base.css';
import './styles/console.css';
import { App } from './app.tsx';
import { loadSession, requireSignIn } from './session.ts';
import { t } from './i18n.ts';

const root = document.getElementById('app');
if (root) {
  render(<App />, root);
  loadSession().catch(() => requireSignIn(t('console.session.unreachable')));
}

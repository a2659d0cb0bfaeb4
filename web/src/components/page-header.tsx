import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { routeHeadingMounted } from '../route-focus.ts';

interface PageHeaderProps {
  title: string;
  /** Shown above the title, e.g. the project a client belongs to. */
  context?: ComponentChildren;
  badges?: ComponentChildren;
  actions?: ComponentChildren;
  children?: ComponentChildren;
}

/** The page's one h1; it names the browser tab and is where focus lands after navigating (data-route-focus). */
export function PageHeader({ title, context, badges, actions, children }: PageHeaderProps) {
  useEffect(routeHeadingMounted, []);
  useEffect(() => {
    document.title = `${title} · Sesame console`;
  }, [title]);
  return (
    <header class="page-header">
      <div class="page-header-main">
        {context && <div class="page-context">{context}</div>}
        <div class="page-title-row">
          <h1 tabIndex={-1} data-route-focus>
            {title}
          </h1>
          {badges && <div class="page-badges">{badges}</div>}
        </div>
        {children}
      </div>
      {actions && <div class="actions page-actions">{actions}</div>}
    </header>
  );
}

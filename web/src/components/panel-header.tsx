import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { routeHeadingMounted } from '../route-focus.ts';

/** The heading of a section inside a page; focus lands on it after navigating to that section. */
export function PanelHeader({ title, actions, children }: { title: string; actions?: ComponentChildren; children?: ComponentChildren }) {
  useEffect(routeHeadingMounted, []);
  return (
    <div class="panel-header">
      <div>
        <h2 tabIndex={-1} data-route-focus>
          {title}
        </h2>
        {children}
      </div>
      {actions && <div class="actions">{actions}</div>}
    </div>
  );
}

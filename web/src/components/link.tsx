import type { ComponentChildren } from 'preact';
import { href, navigate } from '../router.ts';

interface LinkProps {
  to: string;
  children: ComponentChildren;
  class?: string;
  'aria-current'?: 'page' | undefined;
  'aria-label'?: string;
}

/** An ordinary link that the console follows without reloading; modified clicks open a tab as usual. */
export function Link({ to, children, ...rest }: LinkProps) {
  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a {...rest} href={href(to)} onClick={onClick}>
      {children}
    </a>
  );
}

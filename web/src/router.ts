import { useEffect, useState } from 'preact/hooks';
import { isConsolePath } from '../../src/domain/console-paths.ts';

/** Where the console lives; every in-app path below is relative to it. */
export const CONSOLE_BASE = '/console';

export interface Location {
  /** Path below /console, always starting with '/'. */
  path: string;
  query: URLSearchParams;
}

const listeners = new Set<() => void>();

export function currentLocation(): Location {
  const pathname = window.location.pathname;
  const below = pathname.startsWith(CONSOLE_BASE) ? pathname.slice(CONSOLE_BASE.length) : pathname;
  return { path: below === '' ? '/' : below, query: new URLSearchParams(window.location.search) };
}

/** The path and query of the current page, for coming back to it after signing in again. */
export function currentTarget(): string {
  const { path, query } = currentLocation();
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

export function href(path: string): string {
  return CONSOLE_BASE + path;
}

export function navigate(path: string, options: { replace?: boolean } = {}): void {
  const url = href(path);
  if (options.replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  listeners.forEach((listener) => listener());
}

window.addEventListener('popstate', () => listeners.forEach((listener) => listener()));

export function useLocation(): Location {
  const [location, setLocation] = useState(currentLocation);
  useEffect(() => {
    const update = () => setLocation(currentLocation());
    listeners.add(update);
    return () => void listeners.delete(update);
  }, []);
  return location;
}

/** Matches '/projects/:projectId' against a path; returns the decoded parameters or null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const patternParts = pattern.split('/').filter(Boolean);
  const pathParts = path.split('/').filter(Boolean);
  if (patternParts.length !== pathParts.length) return null;
  const params: Record<string, string> = {};
  for (const [index, part] of patternParts.entries()) {
    const actual = pathParts[index] as string;
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(actual);
    else if (part !== actual) return null;
  }
  return params;
}

/** Only same-console paths are followed after sign-in, never an address elsewhere. */
export function safeNextPath(value: string | null): string {
  if (!value || !isConsolePath(value) || value.startsWith('/sign-in')) return '/';
  return value;
}

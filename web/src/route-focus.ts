// After navigating, focus moves to the new page's heading ([data-route-focus], the last one, i.e. the
// most specific section), so keyboard and screen-reader users start where the content changed. Headings
// that appear once their data has loaded take focus too, unless the person has moved it meanwhile.

const SETTLE_MS = 30;
const LATE_HEADING_WINDOW_MS = 3000;

let navigatedAt = Number.NEGATIVE_INFINITY;
let focusedByUs: HTMLElement | null = null;
/** What had focus when the route changed (often the link that was followed): ours to move. */
let focusedAtNavigation: Element | null = null;
let timer: number | undefined;

export function routeChanged(): void {
  navigatedAt = performance.now();
  focusedAtNavigation = document.activeElement;
  focusedByUs = null;
  window.scrollTo(0, 0);
  schedule();
}

export function routeHeadingMounted(): void {
  if (performance.now() - navigatedAt < LATE_HEADING_WINDOW_MS) schedule();
}

function schedule(): void {
  window.clearTimeout(timer);
  timer = window.setTimeout(focusRouteHeading, SETTLE_MS);
}

function focusRouteHeading(): void {
  if (document.querySelector('dialog[open]')) return;
  const active = document.activeElement;
  // Focus the person moved since the route changed (say, tabbing into a form before the heading
  // settled) is theirs: a late timer must not pull it back to the heading.
  const untouched = active === focusedAtNavigation || active === focusedByUs || active === document.body || active === null;
  if (!untouched) return;
  const targets = document.querySelectorAll<HTMLElement>('[data-route-focus]');
  const target = targets[targets.length - 1] ?? document.getElementById('main');
  if (!target || target === active) return;
  target.focus({ preventScroll: true });
  focusedByUs = target;
}

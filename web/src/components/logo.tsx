/** Sesame's mark, drawn inline (no remote asset): an opened padlock on the accent colour. Decorative: the name beside it is the text. */
export function Logo({ size = 28 }: { size?: number }) {
  return (
    <svg class="logo" width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect class="logo-tile" width="32" height="32" rx="8" />
      <path class="logo-shackle" d="M11.5 14.5v-4.25a4.5 4.5 0 0 1 8.7-1.6" />
      <rect class="logo-body" x="7.5" y="14.5" width="17" height="11.5" rx="3" />
      <path class="logo-keyhole" d="M16 18.2a1.7 1.7 0 0 1 .9 3.14V23.2h-1.8v-1.86A1.7 1.7 0 0 1 16 18.2z" />
    </svg>
  );
}

/** How much data the growth run adds before it repeats scenarios 1, 2 and 5. */
export interface GrowthSizes {
  users: number;
  clients: number;
  /** Stored protocol artifacts (oidc_payloads rows: grants, sessions, codes, access and refresh tokens, interactions; and remembered consents). */
  artifacts: number;
}

export const FULL_GROWTH: GrowthSizes = { users: 100_000, clients: 10_000, artifacts: 1_000_000 };
/** --quick seeds a tenth, to stay near a minute; the full run seeds the sizes of the issue. */
export const QUICK_GROWTH: GrowthSizes = { users: 10_000, clients: 1_000, artifacts: 100_000 };

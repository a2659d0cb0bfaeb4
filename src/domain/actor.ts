/** Where a change came from; every audit entry records one. */
export const SURFACES = ['console', 'agent', 'cli', 'system'] as const;
export type Surface = (typeof SURFACES)[number];

/** Who asks: every service function takes one and decides permissions from it. */
export interface Actor {
  subjectId: string | null;
  isAdmin: boolean;
  surface: Surface;
  ip: string | null;
}

export const systemActor: Actor = { subjectId: null, isAdmin: true, surface: 'system', ip: null };
export const cliActor: Actor = { subjectId: null, isAdmin: true, surface: 'cli', ip: null };

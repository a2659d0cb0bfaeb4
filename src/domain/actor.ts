/** Where a change came from; every audit entry records one. */
export const SURFACES = ['console', 'agent', 'mcp', 'cli', 'system'] as const;
export type Surface = (typeof SURFACES)[number];

/** Who asks: every service function takes one and decides permissions from it. */
export interface Actor {
  subjectId: string | null;
  isAdmin: boolean;
  surface: Surface;
  ip: string | null;
  /** The assistant (native client) whose OAuth access token made the request; audited as viaClientId. */
  viaClientId?: string | null;
  /** That assistant's name, audited with it: its registered name, or its metadata document's name when the person consented. */
  viaClientName?: string | null;
  /**
   * The assistant scopes of that token (sesame:read, sesame:write, sesame:admin); undefined for a
   * password session or cookie, which the person's role alone bounds.
   */
  scopes?: readonly string[];
  /**
   * When the console session making the request last proved the person (its sign-in or a
   * re-authentication), epoch ms; set only for console sessions. Person-only operations need it recent.
   */
  provenAt?: number;
}

export const systemActor: Actor = { subjectId: null, isAdmin: true, surface: 'system', ip: null };
export const cliActor: Actor = { subjectId: null, isAdmin: true, surface: 'cli', ip: null };

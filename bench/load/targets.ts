/** What the load process is told about the server it loads: who it is and what it was set up with. */

export interface Person {
  account: string;
  password: string;
}

export interface OidcFixture {
  baseUrl: string;
  client: { clientId: string; clientSecret: string; redirectUri: string };
  person: Person;
}

export interface AgentFixture {
  projectId: string;
  /** A maintainer of the project. */
  person: Person;
  /** One client per virtual user, so each revises its own and always knows the current clientVersion. */
  clientIds: string[];
  scopeWhitelist: string[];
}

export type TargetKind = 'sesame' | 'oidc-provider' | 'bare-fastify';

export interface Target {
  kind: TargetKind;
  /** `sesame sqlite`, `sesame postgres`, `oidc-provider alone`, `bare fastify`. */
  label: string;
  baseUrl: string;
  /** The server process, whose CPU time and peak RSS are read from /proc. */
  pid: number;
  /** Sesame on PostgreSQL: its database, whose server processes' CPU time is read from /proc too. */
  postgres?: { adminUrl: string; database: string };
  oidc?: OidcFixture;
  agent?: AgentFixture;
}

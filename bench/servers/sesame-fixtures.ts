import { randomBytes } from 'node:crypto';
import type { AgentFixture, OidcFixture, Person } from '../load/targets.ts';
import type { SesameServer } from './sesame-server.ts';

const CALLBACK = 'http://127.0.0.1:9/bench/callback';
const ALL_SCOPES = ['openid', 'profile', 'email', 'student', 'offline_access'];
const AGENT_CLIENT_SCOPES = ['openid', 'profile', 'email'];

export interface SesameFixtures {
  oidc: OidcFixture;
  agent: AgentFixture;
}

/** Calls the Agent API as a script would; anything but the expected status stops the run. */
async function call<T>(server: SesameServer, method: string, path: string, body: unknown, token: string | undefined, status: number): Promise<T> {
  const response = await fetch(`${server.baseUrl}/api/agent${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== status) throw new Error(`setting up ${server.engine}: ${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * Everything the scenarios use, made through the Agent API: a person (a maintainer of the bench
 * project), a web client with every scope for the protocol scenarios, and one client per virtual
 * user (at the highest concurrency) for the revision scenario.
 */
export async function setUpSesameFixtures(server: SesameServer, virtualUsers: number): Promise<SesameFixtures> {
  const { accessToken: admin } = await call<{ accessToken: string }>(server, 'POST', '/auth/login', server.admin, undefined, 200);
  const person: Person = { account: 'bench-person', password: `bench-${randomBytes(12).toString('hex')}` };
  const { user } = await call<{ user: { subjectId: string } }>(
    server,
    'POST',
    '/admin/users',
    { account: person.account, displayName: 'Bench Person', email: 'bench.person@example.edu', emailVerified: true, studentStatus: 'active', password: person.password },
    admin,
    201,
  );
  const { project } = await call<{ project: { projectId: string; version: number } }>(server, 'POST', '/projects', { name: 'Benchmark' }, admin, 201);
  await call(server, 'POST', `/projects/${project.projectId}/members`, { subjectId: user.subjectId, role: 'maintainer', expectedProjectVersion: project.version }, admin, 201);

  const register = (displayName: string, scopeWhitelist: string[]) =>
    call<{ client: { clientId: string }; clientSecret: string }>(
      server,
      'POST',
      `/projects/${project.projectId}/clients`,
      { clientType: 'web', displayName, redirectUris: [CALLBACK], scopeWhitelist },
      admin,
      201,
    );
  const web = await register('Benchmark web app', ALL_SCOPES);
  const agentClients: string[] = [];
  for (let i = 0; i < virtualUsers; i += 1) agentClients.push((await register(`Revised by virtual user ${i}`, AGENT_CLIENT_SCOPES)).client.clientId);

  return {
    oidc: { baseUrl: server.baseUrl, client: { clientId: web.client.clientId, clientSecret: web.clientSecret, redirectUri: CALLBACK }, person },
    agent: { projectId: project.projectId, person, clientIds: agentClients, scopeWhitelist: AGENT_CLIENT_SCOPES },
  };
}

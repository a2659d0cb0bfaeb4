import { randomBytes } from 'node:crypto';
import type { RecordedResponse } from '../ceilings/bare-fastify.ts';
import { CEILING_CLIENT } from '../ceilings/ceiling-client.ts';
import { forkReady, type IpcChild } from '../lib/child-processes.ts';
import { freePort } from '../lib/free-port.ts';
import type { AgentFixture, Target } from '../load/targets.ts';
import type { SesameFixtures } from './sesame-fixtures.ts';
import type { SesameServer } from './sesame-server.ts';

export interface RunningTarget {
  target: Target;
  stop(): Promise<void>;
}

async function started(script: string, name: string, env: NodeJS.ProcessEnv, cpuProfileDir: string | undefined): Promise<{ child: IpcChild; baseUrl: string }> {
  const port = await freePort();
  const execArgv = cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] : [];
  const { child } = await forkReady<{ pid: number }>(new URL(script, import.meta.url), name, { args: [String(port)], env: { ...process.env, ...env }, execArgv });
  return { child, baseUrl: `http://127.0.0.1:${port}` };
}

/** The ceiling of scenarios 1-3: oidc-provider alone, in a process of its own. */
export async function startOidcProviderAlone(cpuProfileDir?: string): Promise<RunningTarget> {
  const clientSecret = randomBytes(32).toString('hex');
  const { child, baseUrl } = await started('../ceilings/oidc-provider-alone.ts', 'oidc-provider ceiling', { CEILING_CLIENT_SECRET: clientSecret }, cpuProfileDir);
  return {
    target: {
      kind: 'oidc-provider',
      label: 'oidc-provider alone',
      baseUrl,
      pid: child.pid,
      // The ceiling signs in whoever it is asked to: the password is never checked.
      oidc: { baseUrl, client: { ...CEILING_CLIENT, clientSecret }, person: { account: 'bench-person', password: 'unused' } },
    },
    stop: () => child.stop(),
  };
}

/** The ceiling of scenarios 5 and 6: bare Fastify answering the bytes Sesame answered. */
export async function startBareFastify(routes: RecordedResponse[], agent: AgentFixture, cpuProfileDir?: string): Promise<RunningTarget> {
  const { child, baseUrl } = await started('../ceilings/bare-fastify.ts', 'bare Fastify ceiling', { BARE_FASTIFY_ROUTES: JSON.stringify(routes) }, cpuProfileDir);
  return { target: { kind: 'bare-fastify', label: 'bare Fastify', baseUrl, pid: child.pid, agent }, stop: () => child.stop() };
}

/** Sesame's answers to the requests of scenarios 5 and 6, byte for byte, for the bare Fastify ceiling to replay. */
export async function recordSesameResponses(server: SesameServer, fixtures: SesameFixtures): Promise<RecordedResponse[]> {
  const { agent } = fixtures;
  const record = async (method: RecordedResponse['method'], url: string, path: string, body?: unknown, token?: string): Promise<RecordedResponse & { json: Record<string, unknown> }> => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`recording ${method} ${path}: ${response.status} ${text.slice(0, 200)}`);
    return { method, url, contentType: response.headers.get('content-type') ?? 'application/json', body: text, json: JSON.parse(text) as Record<string, unknown> };
  };
  const login = await record('POST', '/api/agent/auth/login', '/api/agent/auth/login', agent.person);
  const token = login.json.accessToken as string;
  const clientPath = `/api/agent/projects/${agent.projectId}/clients/${agent.clientIds[0]!}`;
  const client = await record('GET', '/api/agent/projects/:projectId/clients/:clientId', clientPath, undefined, token);
  const version = (client.json.client as { clientVersion: number }).clientVersion;
  const revision = await record(
    'PUT',
    '/api/agent/projects/:projectId/clients/:clientId/revision',
    `${clientPath}/revision`,
    { clientVersion: version, redirectUris: ['http://127.0.0.1:9/bench/callback-a'], postLogoutRedirectUris: [], scopeWhitelist: agent.scopeWhitelist, requirePkce: true },
    token,
  );
  const discovery = await record('GET', '/.well-known/openid-configuration', '/.well-known/openid-configuration');
  const jwks = await record('GET', '/jwks', '/jwks');
  return [login, client, revision, discovery, jwks].map(({ json: _json, ...recorded }) => recorded);
}

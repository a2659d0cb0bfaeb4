import { HttpConnection, type HttpResponse } from '../http-connection.ts';
import { ProtocolError, expectStatus } from '../protocol-error.ts';
import type { ScenarioDefinition, ScenarioRun } from '../scenario.ts';
import type { AgentFixture, Target } from '../targets.ts';
import { reusable } from '../reuse-across-measurements.ts';
import { connectionsFor } from './shared.ts';

const PREFIX = '/api/agent';
const REDIRECTS = ['http://127.0.0.1:9/bench/callback-a', 'http://127.0.0.1:9/bench/callback-b'];

function agentFixtureOf(target: Target): AgentFixture {
  if (!target.agent) throw new Error(`${target.label} has no Agent API fixture`);
  return target.agent;
}

function json<T>(response: HttpResponse): T {
  try {
    return JSON.parse(response.body) as T;
  } catch {
    throw new ProtocolError('a body that is not JSON', response);
  }
}

function sendJson(connection: HttpConnection, method: string, path: string, body: unknown, bearer?: string): Promise<HttpResponse> {
  return connection.send({
    method,
    path: `${PREFIX}${path}`,
    headers: { 'content-type': 'application/json', accept: 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function login(connection: HttpConnection, fixture: AgentFixture): Promise<string> {
  const response = await sendJson(connection, 'POST', '/auth/login', fixture.person);
  expectStatus(response, 200, 'POST /auth/login');
  const { accessToken, tokenType } = json<{ accessToken?: unknown; tokenType?: unknown }>(response);
  if (typeof accessToken !== 'string' || tokenType !== 'Bearer') throw new ProtocolError('login without a Bearer access token', response);
  return accessToken;
}

interface ClientBody {
  client?: { clientId?: unknown; clientVersion?: unknown; redirectUris?: unknown };
}

/** The redirect URI a revision switches to: always the other one, so every PUT is a real change. */
const otherRedirect = (client: ClientBody['client']) => (Array.isArray(client?.redirectUris) && client.redirectUris[0] === REDIRECTS[0] ? REDIRECTS[1]! : REDIRECTS[0]!);

/** Virtual users signed in to the Agent API, each with a client of its own in the project. */
async function signedInUsers(target: Target, concurrency: number) {
  const fixture = agentFixtureOf(target);
  const connections = connectionsFor(target, concurrency);
  const tokens = await reusable(target, 'agent tokens', concurrency, (i) => login(connections[i]!, fixture));
  const clientPath = (vu: number) => `/projects/${fixture.projectId}/clients/${fixture.clientIds[vu % fixture.clientIds.length]!}`;
  const close = () => connections.forEach((connection) => connection.close());
  return { fixture, connections, tokens, clientPath, close };
}

// Only Sesame's answers are checked against the request; a ceiling replays one recorded answer.
const strict = (target: Target) => target.kind === 'sesame';

/** Scenario 5a: GET a client with a bearer token. */
export const agentGetClient: ScenarioDefinition = {
  id: 'agent-get-client',
  async create(target, concurrency): Promise<ScenarioRun> {
    const users = await signedInUsers(target, concurrency);
    return {
      pooled: false,
      async prepare() {},
      async operate(vu) {
        const response = await sendJson(users.connections[vu]!, 'GET', users.clientPath(vu), undefined, users.tokens[vu]);
        expectStatus(response, 200, 'GET client');
        const { client } = json<ClientBody>(response);
        if (typeof client?.clientVersion !== 'number') throw new ProtocolError('client without clientVersion', response);
        if (strict(target) && !users.clientPath(vu).endsWith(`/${String(client.clientId)}`)) throw new ProtocolError('another client came back', response);
        return true;
      },
      close: users.close,
    };
  },
};

/** Scenario 5b: PUT a new revision of the client's configuration with the clientVersion of the last answer. */
export const agentPutRevision: ScenarioDefinition = {
  id: 'agent-put-revision',
  async create(target, concurrency): Promise<ScenarioRun> {
    const users = await signedInUsers(target, concurrency);
    const clients = await Promise.all(
      users.connections.map(async (connection, vu) => {
        const response = await sendJson(connection, 'GET', users.clientPath(vu), undefined, users.tokens[vu]);
        expectStatus(response, 200, 'GET client');
        return json<ClientBody>(response).client;
      }),
    );
    const versions = clients.map((client) => Number(client?.clientVersion));
    const redirects = clients.map(otherRedirect);
    return {
      pooled: false,
      async prepare() {},
      async operate(vu) {
        const body = {
          clientVersion: versions[vu],
          redirectUris: [redirects[vu]!],
          postLogoutRedirectUris: [],
          scopeWhitelist: users.fixture.scopeWhitelist,
          requirePkce: true,
        };
        const response = await sendJson(users.connections[vu]!, 'PUT', `${users.clientPath(vu)}/revision`, body, users.tokens[vu]);
        expectStatus(response, 200, 'PUT revision');
        const { client } = json<ClientBody>(response);
        const next = client?.clientVersion;
        if (typeof next !== 'number') throw new ProtocolError('revision without clientVersion', response);
        if (strict(target) && next !== versions[vu]! + 1) throw new ProtocolError(`clientVersion went from ${versions[vu]} to ${next}`, response);
        versions[vu] = next;
        redirects[vu] = otherRedirect(client);
        return true;
      },
      close: users.close,
    };
  },
};

/** Scenario 5c: POST /auth/login with the correct password (one argon2id verification each). */
export const agentLogin: ScenarioDefinition = {
  id: 'agent-login',
  async create(target, concurrency): Promise<ScenarioRun> {
    const fixture = agentFixtureOf(target);
    const connections = connectionsFor(target, concurrency);
    return {
      pooled: false,
      async prepare() {},
      async operate(vu) {
        await login(connections[vu]!, fixture);
        return true;
      },
      close: () => connections.forEach((connection) => connection.close()),
    };
  },
};

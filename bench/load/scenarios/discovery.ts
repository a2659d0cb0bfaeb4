import { ProtocolError, expectStatus } from '../protocol-error.ts';
import type { ScenarioDefinition, ScenarioId } from '../scenario.ts';
import { connectionsFor } from './shared.ts';

function staticDocument(id: ScenarioId, path: string, check: (document: Record<string, unknown>) => boolean): ScenarioDefinition {
  return {
    id,
    async create(target, concurrency) {
      const connections = connectionsFor(target, concurrency);
      return {
        pooled: false,
        async prepare() {},
        async operate(vu) {
          const response = await connections[vu]!.send({ path, headers: { accept: 'application/json' } });
          expectStatus(response, 200, path);
          if (!check(JSON.parse(response.body) as Record<string, unknown>)) throw new ProtocolError(`${path} is not the expected document`, response);
          return true;
        },
        close: () => connections.forEach((connection) => connection.close()),
      };
    },
  };
}

/** Scenario 6a: the discovery document. */
export const discovery = staticDocument('discovery', '/.well-known/openid-configuration', (d) => typeof d.issuer === 'string' && typeof d.token_endpoint === 'string');

/** Scenario 6b: the published signing keys. */
export const jwks = staticDocument('jwks', '/jwks', (d) => Array.isArray(d.keys) && d.keys.length > 0);

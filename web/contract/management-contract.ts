// The console's view of the Management API: the OpenAPI document the server serves at
// /api/management/openapi.json, built in-process from the same operations and zod schemas, and the
// TypeScript types openapi-typescript derives from it. `npm run openapi:sync` writes both;
// `npm run check` fails when the committed files differ from what the current contracts produce.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { managementApi, MANAGEMENT_API_PREFIX, type ManagementApiDeps } from '../../src/api/management/register-management-api.ts';

const apiDir = fileURLToPath(new URL('../src/api/', import.meta.url));

export const CONTRACT_FILES = {
  document: join(apiDir, 'management-openapi.json'),
  types: join(apiDir, 'schema.ts'),
} as const;

// Fixed so the committed document does not depend on where it was generated (it names the server URL and cookies).
const ISSUER = 'http://localhost:3000';

async function managementDocument(): Promise<unknown> {
  const app = Fastify({ logger: false });
  // Serving the document calls no service and reads only the issuer from the configuration.
  const deps = { services: {}, config: { issuer: ISSUER }, cookieKeys: ['openapi-sync'] } as unknown as ManagementApiDeps;
  await app.register(managementApi, { ...deps, prefix: MANAGEMENT_API_PREFIX });
  try {
    const response = await app.inject({ method: 'GET', url: `${MANAGEMENT_API_PREFIX}/openapi.json` });
    if (response.statusCode !== 200) throw new Error(`GET ${MANAGEMENT_API_PREFIX}/openapi.json answered ${response.statusCode}: ${response.body}`);
    return response.json();
  } finally {
    await app.close();
  }
}

/** The text of each generated file, as the current contracts produce it. */
export async function generateContractFiles(): Promise<Record<keyof typeof CONTRACT_FILES, string>> {
  const document = await managementDocument();
  const types = astToString(await openapiTS(document as Parameters<typeof openapiTS>[0], { silent: true }));
  return {
    document: `${JSON.stringify(document, null, 2)}\n`,
    types: `${COMMENT_HEADER.replace('openapi-typescript.', 'openapi-typescript from management-openapi.json (npm run openapi:sync).')}${types}`,
  };
}

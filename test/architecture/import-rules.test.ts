import { fileURLToPath } from 'node:url';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importEdges, importViolations } from './import-graph.ts';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

describe('import rules (docs/architecture.md)', () => {
  it('every import in src/ points down the layers', () => {
    expect(importViolations(importEdges(SRC))).toEqual([]);
  });

  it('the rules catch a wrong import of each kind', () => {
    const wrong = [
      { from: 'domain/roles.ts', to: 'services/people/users.ts' },
      { from: 'storage/store.ts', to: 'services/shared/audit.ts' },
      { from: 'services/people/users.ts', to: 'api/operation.ts' },
      { from: 'rate-limit/sign-in-limiter.ts', to: 'services/people/users.ts' },
      { from: 'oidc/interactions.ts', to: 'api/password-login.ts' },
      { from: 'api/request-validation.ts', to: 'storage/store.ts' },
      { from: 'api/agent/bearer-auth.ts', to: 'api/management/csrf.ts' },
      { from: 'mcp/tool-call.ts', to: 'api/management/cookie-auth.ts' },
      { from: 'oidc/provider.ts', to: 'startup/instance-secrets.ts' },
      { from: 'directory/ldap-directory.ts', to: 'services/people/users.ts' },
      { from: 'domain/identity-providers.ts', to: 'directory/ldap-filter.ts' },
      { from: 'oidc/interactions.ts', to: 'directory/ldap-directory.ts' },
      { from: 'oidc/mount.ts', to: 'account/account-link-routes.ts' },
      { from: 'account/account-link-routes.ts', to: 'oidc/interactions.ts' },
      { from: 'pages/layout.ts', to: 'services/index.ts' },
    ];
    expect(importViolations(wrong)).toHaveLength(wrong.length);
    expect(importViolations([{ from: 'services/people/users.ts', to: 'storage/store.ts' }, { from: 'api/operations/projects.ts', to: 'services/index.ts' }, { from: 'mcp/tool-operations.ts', to: 'api/agent/register-agent-api.ts' }, { from: 'services/people/users.ts', to: 'directory/ldap-directory.ts' }])).toEqual([]);
  });

  it('refuses a use case that imports the API, contracts included: there is no exception for them', () => {
    const wrong = [
      { from: 'services/projects/project-access.ts', to: 'api/contracts/error-advice.ts' },
      { from: 'services/projects/client-import.ts', to: 'api/contracts/clients.ts' },
      { from: 'services/upstream/identity-providers.ts', to: 'api/contracts/field-errors.ts' },
      { from: 'services/people/users.ts', to: 'mcp/tool-call.ts' },
    ];
    expect(importViolations(wrong)).toEqual(wrong.map(({ from, to }) => expect.stringContaining(`src/${from} imports src/${to}: use cases never reach up into a surface`)));
    // The same imports from the start-up code, which composes the server, are fine.
    expect(importViolations([{ from: 'startup/first-deployment.ts', to: 'api/contracts/clients.ts' }])).toEqual([]);
  });

  it('keeps the API contracts off the use cases: the views they map come from the domain', () => {
    const contractEdges = importEdges(SRC).filter(({ from }) => from.startsWith('api/contracts/'));
    expect(contractEdges.length).toBeGreaterThan(10);
    expect(contractEdges.filter(({ to }) => to.startsWith('services/'))).toEqual([]);
  });

  it('finds the imports it judges (the graph is not empty)', () => {
    const edges = importEdges(SRC);
    expect(edges.length).toBeGreaterThan(100);
    expect(edges).toContainEqual({ from: 'startup/compose-server.ts', to: 'app.ts' });
  });

  it('keeps the src/ root to the entry point, the app, the configuration and the errors', () => {
    const rootFiles = readdirSync(SRC, { withFileTypes: true }).filter((entry) => entry.isFile() && !entry.name.endsWith('.test.ts')).map((entry) => entry.name);
    expect(rootFiles.sort()).toEqual(['app.ts', 'config.ts', 'errors.ts', 'main.ts']);
  });
});

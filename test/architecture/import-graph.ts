import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** One relative import between two files under src/, as paths relative to src/ (`services/people/users.ts`). */
export interface ImportEdge {
  from: string;
  to: string;
}

const IMPORT_SPECIFIER = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every relative import of every non-test source file under `srcDir`. */
export function importEdges(srcDir: string): ImportEdge[] {
  return sourceFiles(srcDir).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(IMPORT_SPECIFIER)].map((match) => ({
      from: relative(srcDir, file),
      to: relative(srcDir, resolve(dirname(file), match[1]!)),
    })),
  );
}

/**
 * The layer a file under src/ belongs to: its top folder, `root` for src/*.ts, and for src/api the two
 * REST surfaces apart from the operation list they share (operations, contracts, validation, pipeline).
 */
export function layerOf(path: string): string {
  const [top, second] = path.split('/');
  if (!path.includes('/')) return 'root';
  if (top === 'api' && (second === 'agent' || second === 'management')) return `api/${second}`;
  return top!;
}

interface Rule {
  layer: string;
  /** Layers this one must never import (a file of its own layer is always fine). */
  forbidden: readonly string[];
  /** Files or folders of a forbidden layer allowed anyway (see docs/architecture.md for why). */
  except?: readonly string[];
  why: string;
}

const SURFACES = ['api', 'api/agent', 'api/management', 'mcp', 'oidc', 'account', 'pages', 'cli', 'ops', 'mail', 'startup'];
const EVERYTHING = ['root', ...SURFACES, 'services', 'rate-limit', 'storage', 'security', 'i18n', 'directory'];
const CONFIG_AND_ERRORS = ['root/errors.ts', 'root/config.ts'];

/** The arrows point down: surfaces -> services -> domain/storage; domain imports nothing of ours. */
export const IMPORT_RULES: readonly Rule[] = [
  { layer: 'domain', forbidden: EVERYTHING, why: 'domain rules are pure and import nothing of ours' },
  { layer: 'i18n', forbidden: [...EVERYTHING, 'domain'], why: 'the language catalogues are pure data the console imports too' },
  { layer: 'storage', forbidden: [...SURFACES, 'root', 'services', 'rate-limit', 'security', 'directory'], why: 'storage sits at the bottom, beside domain' },
  { layer: 'security', forbidden: [...SURFACES, 'root', 'services', 'storage', 'rate-limit', 'directory'], why: 'security helpers are leaves' },
  {
    layer: 'rate-limit',
    forbidden: [...SURFACES, 'root', 'services', 'storage', 'directory'],
    except: [...CONFIG_AND_ERRORS, 'ops/metrics.ts', 'ops/logging.ts'],
    why: 'limits sit beneath the use cases they serve',
  },
  { layer: 'directory', forbidden: [...SURFACES, 'root', 'services', 'storage', 'rate-limit', 'security'], why: 'the LDAP client answers the use cases and knows nothing above the domain' },
  {
    layer: 'services',
    forbidden: [...SURFACES, 'root'],
    except: [...CONFIG_AND_ERRORS, 'ops/metrics.ts'],
    why: 'use cases never reach up into a surface: refusal texts and view types live in the domain, and the first-deployment file is judged in startup',
  },
  { layer: 'pages', forbidden: ['api', 'api/agent', 'api/management', 'mcp', 'oidc', 'account', 'cli', 'mail', 'startup', 'root', 'services', 'storage', 'rate-limit', 'directory'], except: CONFIG_AND_ERRORS, why: 'the page kit (layout, language, headers, the error page) serves every page surface and knows none' },
  { layer: 'oidc', forbidden: ['api', 'api/agent', 'api/management', 'mcp', 'account', 'cli', 'mail', 'startup', 'root', 'directory'], except: CONFIG_AND_ERRORS, why: 'the OIDC surface imports no other surface' },
  { layer: 'account', forbidden: ['api', 'api/agent', 'api/management', 'mcp', 'oidc', 'cli', 'mail', 'startup', 'storage', 'root', 'directory'], except: CONFIG_AND_ERRORS, why: 'the account-link pages are a surface over the services, beside the OIDC pages' },
  { layer: 'api', forbidden: ['api/agent', 'api/management', 'mcp', 'oidc', 'cli', 'mail', 'startup', 'storage', 'root', 'directory'], except: CONFIG_AND_ERRORS, why: 'the operation list serves every surface and depends on none' },
  { layer: 'api/agent', forbidden: ['api/management', 'mcp', 'oidc', 'cli', 'mail', 'startup', 'storage', 'root', 'directory'], except: CONFIG_AND_ERRORS, why: 'a REST surface reaches storage only through services' },
  { layer: 'api/management', forbidden: ['api/agent', 'mcp', 'oidc', 'cli', 'mail', 'startup', 'storage', 'root', 'directory'], except: CONFIG_AND_ERRORS, why: 'a REST surface reaches storage only through services' },
  {
    layer: 'mcp',
    forbidden: ['api/agent', 'api/management', 'oidc', 'cli', 'mail', 'startup', 'storage', 'root', 'directory'],
    except: [...CONFIG_AND_ERRORS, 'api/agent/register-agent-api.ts', 'api/agent/agent-guide.ts'],
    why: 'MCP tools are the Agent API operations: it takes their list and guide, nothing else of another surface',
  },
  { layer: 'mail', forbidden: ['api', 'api/agent', 'api/management', 'mcp', 'oidc', 'cli', 'startup', 'storage', 'root', 'directory'], except: CONFIG_AND_ERRORS, why: 'the mail worker sends what the services queue' },
  {
    layer: 'cli',
    forbidden: ['api/agent', 'api/management', 'mcp', 'oidc', 'mail', 'root', 'api', 'directory'],
    except: [...CONFIG_AND_ERRORS, 'api/contracts', 'oidc/signing-keys.ts'],
    why: 'the command line is a surface over services (it validates with the contracts; key rotation is the OIDC engine\'s own)',
  },
];

/** The imports that break a rule, each with the rule's reason. */
export function importViolations(edges: readonly ImportEdge[], rules: readonly Rule[] = IMPORT_RULES): string[] {
  return edges.flatMap(({ from, to }) => {
    const fromLayer = layerOf(from);
    const toLayer = layerOf(to);
    if (fromLayer === toLayer) return [];
    const rule = rules.find((candidate) => candidate.layer === fromLayer);
    if (!rule || !rule.forbidden.includes(toLayer)) return [];
    const target = toLayer === 'root' ? `root/${to}` : to;
    if ((rule.except ?? []).some((allowed) => target === allowed || target.startsWith(`${allowed}/`))) return [];
    return [`src/${from} imports src/${to}: ${rule.why}`];
  });
}

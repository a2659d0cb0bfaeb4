import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** One relative import between two files under src/, as paths relative to src/ (`services/users.ts`). */
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

/** The layer a file under src/ belongs to: its top folder, or `root` for src/*.ts. */
export const layerOf = (path: string): string => (path.includes('/') ? path.split('/')[0]! : 'root');

interface Rule {
  layer: string;
  /** Layers this one must never import (a file of its own layer is always fine). */
  forbidden: readonly string[];
  /** Files of a forbidden layer that are allowed anyway, with the reason. */
  except?: Readonly<Record<string, string>>;
  why: string;
}

const SURFACES = ['api', 'mcp', 'oidc', 'cli', 'ops', 'startup'];
const EVERYTHING = ['root', 'api', 'mcp', 'oidc', 'cli', 'ops', 'startup', 'services', 'rate-limit', 'storage', 'security'];

/** The arrows point down: surfaces -> services -> domain/storage; domain imports nothing of ours. */
export const IMPORT_RULES: readonly Rule[] = [
  { layer: 'domain', forbidden: EVERYTHING, why: 'domain rules are pure and import nothing of ours' },
  { layer: 'storage', forbidden: [...SURFACES, 'root', 'services', 'rate-limit', 'security'], why: 'storage sits at the bottom, beside domain' },
  { layer: 'rate-limit', forbidden: ['api', 'mcp', 'oidc', 'cli', 'startup', 'root', 'services', 'storage'], except: { 'ops/metrics.ts': 'metric types', 'root/errors.ts': '' }, why: 'limits sit beneath the use cases they serve' },
  { layer: 'services', forbidden: [...SURFACES, 'root'], except: { 'root/errors.ts': 'the closed list of error codes', 'ops/metrics.ts': 'metric types' }, why: 'use cases never reach up into a surface' },
  { layer: 'security', forbidden: [...SURFACES, 'root', 'services', 'storage', 'rate-limit'], why: 'security helpers are leaves' },
  { layer: 'oidc', forbidden: ['api', 'mcp', 'cli', 'startup', 'root'], except: { 'root/errors.ts': '', 'root/config.ts': 'the typed configuration' }, why: 'the OIDC surface imports no other surface' },
  { layer: 'api', forbidden: ['mcp', 'oidc', 'cli', 'startup', 'storage', 'root'], except: { 'root/errors.ts': '', 'root/config.ts': '' }, why: 'the management surfaces reach storage only through services' },
  {
    layer: 'mcp',
    forbidden: ['oidc', 'cli', 'startup', 'storage', 'api', 'root'],
    except: { 'api/operations': 'MCP tools are the Agent API operations', 'api/contracts': 'their schemas', 'api/operation.ts': '', 'api/agent/agent-guide.ts': 'the operating guide', 'root/errors.ts': '', 'root/config.ts': '' },
    why: 'the MCP surface reuses the operation list, nothing else of another surface',
  },
  { layer: 'cli', forbidden: ['api', 'mcp', 'oidc', 'startup', 'root'], except: { 'root/errors.ts': '', 'root/config.ts': '' }, why: 'the command line is a surface over services' },
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
    if (Object.keys(rule.except ?? {}).some((allowed) => target === allowed || target.startsWith(`${allowed}/`))) return [];
    return [`src/${from} imports src/${to}: ${rule.why}`];
  });
}

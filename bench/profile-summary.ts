/**
 * Where a server's CPU time went, from a V8 CPU profile (`npm run bench -- --cpu-prof DIR` writes one
 * per Sesame server): time by package or source file, and the functions with the most self and
 * total time. Usage: node bench/profile-summary.ts FILE.cpuprofile [--top N] [--focus TEXT]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** node_modules/<package>, src/<file>, node:<internal> or the V8 pseudo-frames. */
export function moduleOf(url: string): string {
  if (!url) return '(V8/native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const source = /\/(src|bench|web)\/(.+)$/.exec(url);
  if (source) return `${source[1]}/${source[2]}`;
  if (url.startsWith('node:')) return 'node (internal)';
  return url;
}

const frameName = (node: ProfileNode) => `${node.callFrame.functionName || '(anonymous)'} ${moduleOf(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;

export function summarize(profile: CpuProfile, top = 25, focus?: string): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const moduleSelf = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);
  let all = 0;
  let idle = 0;
  for (let i = 0; i < profile.samples.length; i += 1) {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const node = byId.get(profile.samples[i]!)!;
    all += ms;
    if (node.callFrame.functionName === '(idle)') {
      idle += ms;
      continue;
    }
    add(self, frameName(node), ms);
    add(moduleSelf, moduleOf(node.callFrame.url) === '(V8/native)' ? node.callFrame.functionName || '(V8/native)' : moduleOf(node.callFrame.url), ms);
    // Total time: every distinct function on the stack, counted once per sample.
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const name = frameName(byId.get(id)!);
      if (!seen.has(name)) {
        seen.add(name);
        add(total, name, ms);
      }
    }
  }
  const busy = all - idle;
  const pct = (ms: number) => `${((ms / busy) * 100).toFixed(1).padStart(5)}%`;
  const list = (map: Map<string, number>, n: number, filter: (key: string) => boolean = () => true) =>
    [...map.entries()]
      .filter(([key]) => filter(key))
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, ms]) => `  ${pct(ms)} ${ms.toFixed(0).padStart(7)} ms  ${key}`)
      .join('\n');
  const meaningful = (key: string) => !key.startsWith('(root)') && !key.startsWith('(program)') && (!focus || key.includes(focus));
  return [
    `sampled ${all.toFixed(0)} ms, busy ${busy.toFixed(0)} ms (idle ${idle.toFixed(0)} ms); percentages are of busy time`,
    '\nself time by package / source file:',
    list(moduleSelf, top),
    '\nfunctions by self time:',
    list(self, top, meaningful),
    '\nfunctions by total time (self + callees):',
    list(total, top, meaningful),
  ].join('\n');
}

if (import.meta.main) {
  const [file, ...rest] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('Usage: node bench/profile-summary.ts FILE.cpuprofile [--top N] [--focus TEXT]\n');
    process.exit(2);
  }
  const topAt = rest.indexOf('--top');
  const focusAt = rest.indexOf('--focus');
  process.stdout.write(`${summarize(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, topAt >= 0 ? Number(rest[topAt + 1]) : 25, focusAt >= 0 ? rest[focusAt + 1] : undefined)}\n`);
}

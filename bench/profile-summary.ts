/**
 * Where a server's CPU time went, from a V8 CPU profile (`npm run bench -- --cpu-prof DIR` writes one
 * per server): time by package or source file, and the functions with the most self and total time.
 *
 *   node bench/profile-summary.ts FILE.cpuprofile [--top N] [--focus TEXT]
 *     [--results bench/results/latest.json --scenario ID --concurrency N --target 'sesame sqlite']
 *
 * With --results, only the samples taken during that measurement's timed phase count (profiles and
 * the bench share the machine's monotonic clock), so set-up, minting and warm-up are left out.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
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

export function summarize(profile: CpuProfile, top = 25, focus?: string, windowUs?: [number, number]): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const moduleSelf = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);
  let all = 0;
  let idle = 0;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i += 1) {
    at += profile.timeDeltas[i] ?? 0;
    if (windowUs && (at < windowUs[0] || at > windowUs[1])) continue;
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

function timedWindow(resultsFile: string, scenario: string, concurrency: number, target: string, phase: string): [number, number] {
  const { rows } = JSON.parse(readFileSync(resultsFile, 'utf8')) as { rows: { scenario: string; concurrency: number; target: string; phase: string; timedWindowUs: [number, number] | null }[] };
  const row = rows.find((r) => r.scenario === scenario && r.concurrency === concurrency && r.target === target && r.phase === phase);
  if (!row?.timedWindowUs) throw new Error(`no ${phase} measurement of ${scenario} at c=${concurrency} on ${target} in ${resultsFile}`);
  return row.timedWindowUs;
}

if (import.meta.main) {
  const [file, ...rest] = process.argv.slice(2);
  const option = (name: string) => {
    const at = rest.indexOf(name);
    return at >= 0 ? rest[at + 1] : undefined;
  };
  if (!file) {
    process.stderr.write('Usage: node bench/profile-summary.ts FILE.cpuprofile [--top N] [--focus TEXT] [--results FILE --scenario ID --concurrency N --target NAME [--phase empty|grown|ceiling]]\n');
    process.exit(2);
  }
  const results = option('--results');
  const window = results
    ? timedWindow(results, option('--scenario') ?? '', Number(option('--concurrency')), option('--target') ?? '', option('--phase') ?? (option('--target')?.startsWith('sesame') ? 'empty' : 'ceiling'))
    : undefined;
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  process.stdout.write(`${summarize(profile, Number(option('--top') ?? 25), option('--focus'), window)}\n`);
}

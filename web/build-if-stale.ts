// Builds the console (web/dist) when it is missing or older than its sources; otherwise does nothing,
// quickly. Run before `npm start` and `npm test`, and by the browser tests themselves.
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const webDir = fileURLToPath(new URL('.', import.meta.url));
const repoDir = join(webDir, '..');
const builtIndex = join(webDir, 'dist', 'index.html');
const lockDir = join(webDir, '.build-lock');

const SOURCES = [
  join(webDir, 'index.html'),
  join(webDir, 'vite.config.ts'),
  join(webDir, 'src'),
  join(webDir, 'theme'),
  // The console imports the domain's rules and texts (client rules, roles, the relying-party recipe).
  join(repoDir, 'src', 'domain'),
  // ...and the language catalogues it shares with the pages.
  join(repoDir, 'src', 'i18n'),
  join(repoDir, 'package-lock.json'),
];

function newestChange(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((entry) => newestChange(join(path, entry))));
}

export function consoleIsStale(): boolean {
  const built = statSync(builtIndex, { throwIfNoEntry: false });
  return !built || Math.max(...SOURCES.map(newestChange)) > built.mtimeMs;
}

/** One build at a time, also across the parallel test workers: the others wait for it. */
async function withLock<T>(work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(lockDir);
      break;
    } catch {
      const lock = statSync(lockDir, { throwIfNoEntry: false });
      if (lock && Date.now() - lock.mtimeMs > 120_000) rmSync(lockDir, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`web: gave up waiting for ${lockDir}; remove it if no build is running`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

export async function buildConsoleIfStale(options: { quiet?: boolean } = {}): Promise<boolean> {
  if (!consoleIsStale()) return false;
  return withLock(async () => {
    if (!consoleIsStale()) return false;
    const { build } = await import('vite');
    await build({ configFile: join(webDir, 'vite.config.ts'), logLevel: options.quiet ? 'silent' : 'info' });
    return true;
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  // `--quiet` (npm ci's prepare, npm start): no build output, except in the log at LOG_LEVEL=debug.
  const quiet = process.argv.includes('--quiet') && !['debug', 'trace'].includes(process.env['LOG_LEVEL'] ?? '');
  const built = await buildConsoleIfStale({ quiet });
  if (!built && !quiet) process.stdout.write('web: console build is up to date (web/dist)\n');
}

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Engine } from '../../src/storage/database.ts';
import { stopProcess } from '../lib/child-processes.ts';
import { freePort } from '../lib/free-port.ts';

const MAIN = process.env.BENCH_SESAME_MAIN ?? fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** A word list of package.json's `config`, which `npm start` puts on the server's command line. */
function startConfig(name: 'serverNodeFlags' | 'serverEnvironment'): string[] {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { config?: Record<string, unknown> };
  const words = manifest.config?.[name];
  if (typeof words !== 'string') throw new Error(`package.json has no config.${name}: the bench would not run Sesame as \`npm start\` does`);
  return words.split(/\s+/).filter(Boolean);
}

/** The Node flags `npm start` gives the server (package.json `config.serverNodeFlags`): V8's heap sizes. */
export const serverNodeFlags = () => startConfig('serverNodeFlags');

/** The variables `npm start` sets for the server (package.json `config.serverEnvironment`): glibc's malloc arenas. */
export function serverEnvironment(): Record<string, string> {
  return Object.fromEntries(startConfig('serverEnvironment').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}

// High enough that no limit ever holds the load back; the limiters still count every request.
const UNTHROTTLED = '1000000000';

export interface SesameServer {
  engine: Engine;
  pid: number;
  baseUrl: string;
  admin: { account: string; password: string };
  stop(): Promise<void>;
}

const SERVER_SHUTDOWN_GRACE_SECONDS = 1;
// Writing a CPU profile of a whole run takes a few seconds.
const PROFILE_WRITE_SECONDS = 20;

/**
 * Starts Sesame exactly as `npm start` does (`env <serverEnvironment> node <serverNodeFlags> src/main.ts`), in a process of its
 * own, over the given database; `nodeFlags` come after (V8 takes the last value of a flag given twice);
 * `cpuProfileDir` adds `--cpu-prof` (the profile is written when it stops).
 * BENCH_SESAME_MAIN runs another entry point instead (a wrapper that instruments src/main.ts).
 */
export async function startSesameServer(options: { engine: Engine; databaseUrl: string; cpuProfileDir?: string | undefined; nodeFlags?: string[] }): Promise<SesameServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const admin = { account: 'bench-admin', password: `bench-${randomBytes(12).toString('hex')}` };
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: options.databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    OIDC_ISSUER: baseUrl,
    LOG_LEVEL: 'warn',
    OIDC_AGENT_API_ENABLED: 'true',
    OIDC_BOOTSTRAP_ADMIN_ACCOUNT: admin.account,
    OIDC_BOOTSTRAP_ADMIN_PASSWORD: admin.password,
    TOKEN_RATE_PER_CLIENT: UNTHROTTLED,
    TOKEN_RATE_PER_IP: UNTHROTTLED,
    SIGNIN_MAX_FAILURES_PER_ACCOUNT: UNTHROTTLED,
    SIGNIN_MAX_FAILURES_PER_IP: UNTHROTTLED,
    SIGNIN_MAX_FAILURES_PER_ACCOUNT_IP: UNTHROTTLED,
    // Nothing is in flight when the bench stops a server; a short grace leaves --cpu-prof time to write its
    // profile well before stopProcess gives up and kills it.
    SHUTDOWN_GRACE_SECONDS: String(SERVER_SHUTDOWN_GRACE_SECONDS),
    ...serverEnvironment(),
  };
  const execArgv = [...serverNodeFlags(), ...(options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : []), ...(options.nodeFlags ?? [])];
  const child = spawn(process.execPath, [...execArgv, MAIN], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
  await waitForListening(child, options.engine);
  // Anything Sesame says at warn or above during the run is worth seeing.
  child.stdout!.on('data', (chunk: Buffer) => process.stderr.write(prefixed(options.engine, chunk)));
  return { engine: options.engine, pid: child.pid!, baseUrl, admin, stop: () => stopProcess(child, (SERVER_SHUTDOWN_GRACE_SECONDS + PROFILE_WRITE_SECONDS) * 1000) };
}

const prefixed = (engine: string, chunk: Buffer) =>
  chunk.toString('utf8').split('\n').filter(Boolean).map((line) => `  [sesame ${engine}] ${line}\n`).join('');

function waitForListening(child: ChildProcess, engine: string): Promise<void> {
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('sesame: listening on')) {
        child.stdout!.off('data', onData);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => process.stderr.write(prefixed(engine, chunk)));
    child.once('exit', (code) => reject(new Error(`Sesame (${engine}) exited with ${code} before listening:\n${output}`)));
  });
}

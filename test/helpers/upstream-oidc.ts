import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './oidc-server.ts';

const FIXTURE_PATH = fileURLToPath(new URL('../fixtures/upstream-oidc-provider.ts', import.meta.url));

export interface UpstreamClient {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
}

export type UpstreamAccounts = Record<string, Record<string, unknown>>;

export interface UpstreamProvider {
  issuer: string;
  /** Replaces the upstream's people (read at each sign-in there). */
  setAccounts(accounts: UpstreamAccounts): void;
  stop(): Promise<void>;
}

/**
 * A second, independently configured oidc-provider as its own process on a free 127.0.0.1 port: the
 * upstream OpenID Connect provider of the federation tests, with its own login form, people and clients.
 */
export async function startUpstreamProvider(clients: UpstreamClient[], accounts: UpstreamAccounts): Promise<UpstreamProvider> {
  const dir = mkdtempSync(join(tmpdir(), 'sesame-upstream-'));
  const accountsFile = join(dir, 'accounts.json');
  const setAccounts = (next: UpstreamAccounts) => writeFileSync(accountsFile, JSON.stringify(next));
  setAccounts(accounts);
  const port = await freePort();
  const child = spawn(process.execPath, [FIXTURE_PATH], {
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'development', UPSTREAM_CONFIG: JSON.stringify({ port, clients, accountsFile }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const issuer = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the upstream provider did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const ready = /UPSTREAM READY (\S+)/.exec(output);
      if (ready) {
        clearTimeout(timer);
        resolve(ready[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the upstream provider exited (${code}):\n${output}`));
    });
  });
  return {
    issuer,
    setAccounts,
    async stop() {
      if (child.exitCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

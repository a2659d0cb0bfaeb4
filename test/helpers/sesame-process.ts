import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from './oidc-server.ts';

export const MAIN_PATH = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
export const CLI_MAIN_PATH = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

export const ADMIN = { account: 'admin', password: 'process-test-admin-password' } as const;

export interface SesameProcess {
  pid: number;
  port: number;
  /** `http://127.0.0.1:<port>`, also the issuer unless the environment sets another. */
  url: string;
  child: ChildProcess;
  /** Everything it printed so far, for failure messages. */
  output(): string;
  /** Settles when the process has exited, with its exit code or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends a signal to this process (by its PID), if it is still running. */
  signal(signal: NodeJS.Signals): void;
}

const running = new Set<SesameProcess>();

export interface StartOptions {
  databaseUrl: string;
  /** Defaults to a free port on 127.0.0.1. */
  port?: number;
  env?: Record<string, string>;
  readyTimeoutMs?: number;
}

/**
 * `node src/main.ts` as an operator starts it: its own process, listening on 127.0.0.1 and a free
 * port, on the given database, with a bootstrap administrator. Resolves once /health/ready says
 * ready; fails with the process's output if it exits first or never gets ready.
 */
export async function startSesame(options: StartOptions): Promise<SesameProcess> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [MAIN_PATH], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      OIDC_ISSUER: url,
      DATABASE_URL: options.databaseUrl,
      OIDC_BOOTSTRAP_ADMIN_ACCOUNT: ADMIN.account,
      OIDC_BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let hasExited = false;
  void exited.then(() => {
    hasExited = true;
    running.delete(sesame);
  });
  const sesame: SesameProcess = {
    pid: child.pid!,
    port,
    url,
    child,
    output: () => output,
    exited,
    signal(signal) {
      if (!hasExited) process.kill(sesame.pid, signal);
    },
  };
  running.add(sesame);

  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  while (Date.now() < deadline) {
    if (hasExited) throw new Error(`sesame exited before it was ready:\n${output}`);
    try {
      const response = await fetch(`${url}/health/ready`);
      if (response.status === 200) return sesame;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  sesame.signal('SIGKILL');
  throw new Error(`sesame did not get ready within the time limit:\n${output}`);
}

/** Kills (SIGKILL, by PID) every process this helper started that still runs; for afterAll. */
export async function killAllSesame(): Promise<void> {
  const left = [...running];
  for (const sesame of left) sesame.signal('SIGKILL');
  await Promise.all(left.map((sesame) => sesame.exited));
}

/** An Agent API caller over real HTTP. */
export function agentOver(url: string) {
  let token: string | undefined;
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}/api/agent${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: (text === '' ? undefined : JSON.parse(text)) as any, text };
  };
  return {
    call,
    async login(account: string = ADMIN.account, password: string = ADMIN.password) {
      const response = await call('POST', '/auth/login', { account, password });
      if (response.status !== 200) throw new Error(`login of ${account} failed: ${response.status} ${response.text}`);
      token = response.body.accessToken as string;
      return response;
    },
  };
}

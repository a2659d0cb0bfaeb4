import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI_PATH = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
export const BIN_PATH = fileURLToPath(new URL('../../bin/sesame.js', import.meta.url));

export interface SesameRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI as a real process on this Node (24), with only the environment a operator would set. */
export function runSesame(args: string[], options: { databaseUrl: string; input?: string; env?: Record<string, string>; entry?: string }): Promise<SesameRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [options.entry ?? CLI_PATH, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test', DATABASE_URL: options.databaseUrl, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    // The CLI may exit before reading stdin (usage errors); a closed pipe then is expected.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}

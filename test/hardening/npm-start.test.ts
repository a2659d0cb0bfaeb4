import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/oidc-server.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const MiB = 1024 * 1024;

/** The environment of the process in this process group whose command line runs `script`. */
function environmentOf(processGroup: number, script: string): Map<string, string> | undefined {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const group = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      if (group !== processGroup || !readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(script)) continue;
      const pairs = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
      return new Map(pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
    } catch {
      // The process ended while it was read.
    }
  }
  return undefined;
}

/** `npm start`, the README's first command, as a person runs it in the repository (here on a temporary database). */
describe('npm start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sesame-npm-start-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('starts Sesame with its heap and malloc arenas bounded, prints where it is, and stops on SIGTERM', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    // Its own process group, so the signal reaches npm, its shell and Node alike.
    const npm = spawn('npm', ['start', '--silent'], {
      cwd: REPO,
      detached: true,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: String(port), HOST: '127.0.0.1', OIDC_ISSUER: url, DATABASE_URL: `sqlite:${join(dataDir, 'sesame.db')}`, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    npm.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    npm.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
    try {
      await expect.poll(() => output, { timeout: 60_000, interval: 100 }).toContain('its generated password');
      expect(output).toContain(`sesame: listening on 127.0.0.1:${port}`);
      expect(output).toContain(`console:         ${url}/console`);
      expect(output).toContain(`mcp:             ${url}/mcp`);
      // Nothing from the console's build tool between the useful lines (DESIGN 17).
      expect(output).not.toMatch(/vite|rolldown|INEFFECTIVE_DYNAMIC_IMPORT|^web:/im);

      const metrics = await (await fetch(`${url}/metrics`)).text();
      const limit = Number(/^nodejs_heap_size_limit_bytes (\d+)$/m.exec(metrics)?.[1]);
      // package.json's serverNodeFlags: a 256 MiB old generation and 2 x 8 MiB semi-spaces (V8's own default here is gigabytes).
      expect(limit).toBeGreaterThanOrEqual(256 * MiB);
      expect(limit).toBeLessThan(300 * MiB);
      // package.json's serverEnvironment: glibc's malloc keeps two arenas, not one per thread.
      expect(environmentOf(npm.pid!, 'src/main.ts')?.get('MALLOC_ARENA_MAX')).toBe('2');
    } finally {
      process.kill(-npm.pid!, 'SIGTERM');
    }
    await exited;
    expect(output).toContain('SIGTERM received');
  }, 90_000);
});

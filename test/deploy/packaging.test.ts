import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(join(REPO, path), 'utf8');

/** Building the image or running the chart is not possible on this machine; these hold the files to what docs/deploy.md says. */
describe('packaging', () => {
  it('is licensed Apache-2.0, in the LICENSE file and in package.json', () => {
    expect(read('LICENSE')).toMatch(/^\s*Apache License\s+Version 2\.0, January 2004/);
    expect(JSON.parse(read('package.json')).license).toBe('Apache-2.0');
  });

  it('the Dockerfile builds the console in one stage, installs production dependencies in another, and runs as a non-root user with a health check', () => {
    const lines = read('Dockerfile').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
    const stages = lines.filter((line) => /^FROM /i.test(line));
    expect(stages.length).toBeGreaterThanOrEqual(3);
    const finalStage = lines.slice(lines.lastIndexOf(stages.at(-1)!));
    expect(lines.some((line) => /npm ci .*--omit=dev/.test(line))).toBe(true);
    expect(finalStage.some((line) => /^COPY --from=production-dependencies .*node_modules/.test(line))).toBe(true);
    expect(finalStage.some((line) => /^COPY --from=console .*web\/dist/.test(line))).toBe(true);
    expect(finalStage.some((line) => /^COPY .*node_modules/.test(line) && !line.includes('--from='))).toBe(false);
    const user = finalStage.filter((line) => /^USER /.test(line)).at(-1);
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^USER (root|0)\b/);
    expect(read('Dockerfile')).toMatch(/HEALTHCHECK[\s\S]*\/health\/ready/);
    // Every path the image copies from the repository exists.
    for (const line of lines.filter((l) => /^COPY /.test(l) && !l.includes('--from='))) {
      const sources = line.replace(/^COPY\s+/, '').split(/\s+/).slice(0, -1);
      for (const source of sources) expect(existsSync(join(REPO, source)), source).toBe(true);
    }
    const ignored = read('.dockerignore').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', '.git', '.env']));
  });

  it('the image and the systemd unit run Sesame as npm start does: its Node flags and its environment', () => {
    const { config } = JSON.parse(read('package.json')) as { config: { serverNodeFlags: string; serverEnvironment: string } };
    const flags = config.serverNodeFlags.split(' ');
    const variables = config.serverEnvironment.split(' ');
    expect(variables).toContain('MALLOC_ARENA_MAX=2');
    const dockerfile = read('Dockerfile');
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]!) as string[];
    expect(cmd).toEqual(['node', ...flags, 'src/main.ts']);
    for (const variable of variables) expect(dockerfile).toMatch(new RegExp(`^ENV ${variable}$`, 'm'));
    const unit = read('deploy/systemd/sesame.service');
    expect(/^ExecStart=(.*)$/m.exec(unit)![1]!.split(' ')).toEqual(['/usr/bin/node', ...flags, 'src/main.ts']);
    for (const variable of variables) expect(unit).toMatch(new RegExp(`^Environment=${variable}$`, 'm'));
  });

  it('compose.yaml runs Sesame in production behind Caddy with PostgreSQL, Redis and a mail catcher, secrets from .env', () => {
    const compose = parse(read('compose.yaml')) as { services: Record<string, { environment?: Record<string, string>; env_file?: string; image?: string; build?: string; volumes?: string[] }> };
    expect(Object.keys(compose.services)).toEqual(expect.arrayContaining(['sesame', 'caddy', 'postgres', 'redis', 'mail']));
    const sesame = compose.services['sesame']!;
    expect(sesame.environment?.['NODE_ENV']).toBe('production');
    expect(sesame.environment?.['OIDC_ISSUER']).toMatch(/^https:\/\//);
    expect(sesame.environment?.['DATABASE_URL']).toMatch(/^postgres:\/\/.*@postgres:5432\//);
    expect(sesame.environment?.['REDIS_URL']).toBe('redis://redis:6379');
    expect(sesame.env_file).toBe('.env');
    const caddyfile = compose.services['caddy']!.volumes?.find((volume) => volume.includes('Caddyfile'))?.split(':')[0];
    expect(caddyfile && existsSync(join(REPO, caddyfile))).toBe(true);
    // Every variable compose reads from .env is listed in .env.example, and the secrets production requires are there.
    const example = read('.env.example');
    const listed = new Set([...example.matchAll(/^([A-Z_]+)=/gm)].map((match) => match[1]));
    for (const name of new Set([...read('compose.yaml').matchAll(/\$\{([A-Z_]+)/g)].map((match) => match[1]))) expect(listed.has(name), name).toBe(true);
    for (const name of ['OIDC_KEY_ENCRYPTION_SECRET', 'OIDC_COOKIE_KEYS', 'OIDC_BOOTSTRAP_ADMIN_PASSWORD', 'POSTGRES_PASSWORD']) expect(listed.has(name), name).toBe(true);
  });

  it('the Helm chart parses and its templates use only values the chart defines', () => {
    const dir = join(REPO, 'deploy/helm/sesame');
    const chart = parse(read('deploy/helm/sesame/Chart.yaml')) as { apiVersion: string; name: string; appVersion: string };
    expect(chart).toMatchObject({ apiVersion: 'v2', name: 'sesame' });
    const values = parse(read('deploy/helm/sesame/values.yaml')) as Record<string, unknown>;
    const templates = readdirSync(join(dir, 'templates'));
    expect(templates).toEqual(expect.arrayContaining(['deployment.yaml', 'service.yaml', 'ingress.yaml']));
    const deployment = read('deploy/helm/sesame/templates/deployment.yaml');
    expect(deployment).toContain('/health/ready');
    expect(deployment).toContain('OIDC_ISSUER');
    for (const template of templates) {
      const text = readFileSync(join(dir, 'templates', template), 'utf8');
      for (const [, path] of text.matchAll(/\.Values\.([A-Za-z0-9_.]+)/g)) {
        const found = path!.split('.').reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), values);
        expect(found, `${template}: .Values.${path}`).not.toBeUndefined();
      }
    }
  });

  it('docs/deploy.md covers the image, compose, the chart, Caddy and nginx with TLS, and the systemd unit, and every file it names exists', () => {
    const guide = read('docs/deploy.md');
    for (const path of ['Dockerfile', 'compose.yaml', '.env.example', 'deploy/helm/sesame', 'deploy/caddy/Caddyfile', 'deploy/nginx/sesame.conf', 'deploy/systemd/sesame.service']) {
      expect(guide, path).toContain(path);
      expect(existsSync(join(REPO, path)), path).toBe(true);
    }
    expect(guide).toContain('operations.md');
  });
});

import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../e2e/support/browser.ts';
import { createTestDatabase, TEST_ENGINES, type TestDatabase } from '../helpers/engines.ts';
import { makeThrowawayTls, startMetadataDocumentServer, type MetadataDocumentServer, type ThrowawayTls } from '../helpers/metadata-document-server.ts';
import { freePort } from '../helpers/oidc-server.ts';
import { agentOver, killAllSesame, startSesame, type SesameProcess } from '../helpers/sesame-process.ts';
import { authorizeWithScope, PreRegisteredAssistant, signInOverHttp, signInToConsentPage } from './assistant-client.ts';

/** The package's own `mcp-inspector` bin, run with this Node: what `npx @modelcontextprotocol/inspector` runs. */
const INSPECTOR_PACKAGE = createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json');
const INSPECTOR = JSON.parse(readFileSync(INSPECTOR_PACKAGE, 'utf8')) as { version: string; bin: Record<string, string> };
const INSPECTOR_BIN = join(dirname(INSPECTOR_PACKAGE), INSPECTOR.bin['mcp-inspector']!);

const PERSON = { account: 'ines', displayName: 'Ines Inspector', password: 'inspector-person-password' } as const;

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

type Structured = Record<string, any>;
/** `--format json` prints `{"result": ...}` on stdout on success, `{"error": {code, message}}` on stderr on failure. */
const resultOf = (run: CliRun) => (JSON.parse(run.stdout) as { result: Structured }).result;
const errorOf = (run: CliRun) => (JSON.parse(run.stderr.trim().split('\n').at(-1)!) as { error: { code: string; message: string } }).error;

/**
 * The MCP Inspector's command-line mode as a person runs it in a script: a child process with no terminal,
 * known to Sesame only by a client ID metadata document (no registration), signing the person in itself
 * through the browser it opens, keeping the tokens in its own store for the next commands.
 */
describe.each(TEST_ENGINES)(`the MCP Inspector ${INSPECTOR.version} CLI against /mcp, on %s`, (engine) => {
  let tls: ThrowawayTls;
  let documents: MetadataDocumentServer;
  let database: TestDatabase;
  let sesame: SesameProcess;
  let browser: Browser;
  let home: string;
  let callbackUrl: string;
  const documentUrl = () => documents.url('/inspector.json');
  const openedUrls = () => join(home, 'opened-urls');
  /** Inspector processes still running: a test that fails before the callback leaves one waiting for it. */
  const running = new Set<ChildProcess>();

  beforeAll(async () => {
    tls = makeThrowawayTls();
    documents = await startMetadataDocumentServer(tls);
    callbackUrl = `http://127.0.0.1:${await freePort()}/oauth/callback`;
    documents.serve('/inspector.json', {
      client_id: documentUrl(),
      client_name: 'MCP Inspector',
      redirect_uris: ['http://127.0.0.1/oauth/callback'],
      token_endpoint_auth_method: 'none',
    });
    database = await createTestDatabase(engine);
    sesame = await startSesame({
      databaseUrl: database.url,
      env: { NODE_EXTRA_CA_CERTS: tls.caPath, ASSISTANT_METADATA_ALLOWED_HOSTS: `localhost:${documents.port}` },
    });
    const admin = agentOver(sesame.url);
    await admin.login();
    expect((await admin.call('POST', '/admin/users', { account: PERSON.account, displayName: PERSON.displayName, password: PERSON.password })).status).toBe(201);
    home = mkdtempSync(join(tmpdir(), 'sesame-inspector-'));
    // The "browser" the Inspector opens: it hands the URL to this test, whose Chromium is the person's browser.
    writeFileSync(join(home, 'open-browser'), `#!/bin/sh\nprintf '%s\\n' "$1" >> '${openedUrls()}'\n`);
    chmodSync(join(home, 'open-browser'), 0o755);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    for (const child of running) child.kill('SIGKILL');
    await browser?.close();
    await killAllSesame();
    await documents?.close();
    await database?.drop();
    tls?.remove();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  /**
   * `mcp-inspector --cli {issuer}/mcp --format json ...` with no terminal. Its store (tokens included) is under
   * `storeHome`; nothing of this machine's desktop leaks in: xdg-open (through the `open` package) takes the
   * generic route, which runs $BROWSER.
   */
  function inspector(args: string[], options: { env?: Record<string, string>; storeHome?: string } = {}) {
    const child = spawn(process.execPath, [INSPECTOR_BIN, '--cli', `${sesame.url}/mcp`, '--format', 'json', ...args], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: options.storeHome ?? home,
        MCP_INSPECTOR_SECRET_STORE: 'file',
        XDG_CURRENT_DESKTOP: 'X-Generic',
        BROWSER: join(home, 'open-browser'),
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const done = new Promise<CliRun>((resolve) =>
      child.once('close', (code) => {
        running.delete(child);
        resolve({ code, stdout, stderr });
      }),
    );
    return Object.assign(done, { output: () => stdout + stderr });
  }

  /** The URL the Inspector asked the browser to open; fails with its output if it ends or waits 15 s without opening one. */
  async function urlTheInspectorOpens(run: ReturnType<typeof inspector>): Promise<URL> {
    let ended = false;
    void run.then(() => (ended = true));
    for (const deadline = Date.now() + 15_000; Date.now() < deadline && !ended; ) {
      const opened = (() => {
        try {
          return readFileSync(openedUrls(), 'utf8').trim();
        } catch {
          return '';
        }
      })();
      if (opened) return new URL(opened);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`the Inspector opened no browser:\n${run.output()}`);
  }

  it('without a sign-in stops at Sesame\'s 401 (--stored-auth-only), and starts none without a terminal unless told to', async () => {
    const storedOnly = await inspector(['--method', 'tools/list', '--stored-auth-only']);
    expect(storedOnly.code).toBe(3);
    expect(errorOf(storedOnly).code).toBe('auth_required');
    expect(errorOf(storedOnly).message).toContain('login_required');
    expect(errorOf(storedOnly).message).toContain(`${sesame.url}/.well-known/oauth-protected-resource/mcp`);

    const noTerminal = await inspector(['--method', 'tools/list', '--client-metadata-url', documentUrl(), '--callback-url', callbackUrl]);
    expect(noTerminal.code).toBe(3);
    expect(errorOf(noTerminal).message).toContain('Interactive OAuth requires a TTY');
    expect(() => readFileSync(openedUrls())).toThrow();
  });

  it('signs the person in itself, with its client metadata URL, through Sesame\'s sign-in and consent pages in Chromium, then lists the tools', async () => {
    const run = inspector(['--method', 'tools/list', '--client-metadata-url', documentUrl(), '--callback-url', callbackUrl], { env: { MCP_AUTO_OPEN_ENABLED: 'true' } });
    const authorizationUrl = await urlTheInspectorOpens(run);
    expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(`${sesame.url}/auth`);
    expect(Object.fromEntries(authorizationUrl.searchParams)).toMatchObject({
      client_id: documentUrl(),
      redirect_uri: callbackUrl,
      resource: `${sesame.url}/mcp`,
      code_challenge_method: 'S256',
      response_type: 'code',
      // Every scope the resource's metadata lists, and a refresh token; Sesame offers sesame:admin to administrators only.
      scope: 'sesame:read sesame:write sesame:admin offline_access',
    });

    const context = await browser.newContext();
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    const consent = await signInToConsentPage(page, authorizationUrl, PERSON);
    expect(consent).toContain('MCP Inspector');
    expect(consent).toContain(`it describes itself at localhost:${documents.port}`);
    expect(consent).toContain('Make every change your role allows');
    expect(consent).toContain(`Signed in as ${PERSON.displayName}`);
    expect(consent).not.toContain('administrator rights');
    await page.getByRole('button', { name: 'Allow', exact: true }).click();
    await page.waitForURL((url) => `${url.origin}${url.pathname}` === callbackUrl);
    expect(await page.locator('body').innerText()).toContain('OAuth complete. You can close this window.');
    await context.close();

    const listed = await run;
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stderr).toContain(`Please navigate to: ${authorizationUrl.href}`);
    const names = (resultOf(listed).tools as Structured[]).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['whoAmI', 'listProjects', 'createProject', 'registerClient', 'deleteProject']));
    expect(names).not.toContain('listUsers'); // an administrator's tool: not for this person's token
    expect(documents.requests).toContain('/inspector.json');

    // Connected like any assistant, under the name its document gave, with no registration anywhere.
    const person = agentOver(sesame.url);
    await person.login(PERSON.account, PERSON.password);
    const consents = (await person.call('GET', '/account/consents')).body.consents as Structured[];
    expect(consents.find((entry) => entry.clientId === documentUrl())).toMatchObject({ displayName: 'MCP Inspector', scopes: expect.arrayContaining(['sesame:read', 'sesame:write']) });
  });

  it('runs later commands on the sign-in it stored (--stored-auth-only): whoAmI names the person, a change is audited as its, a refusal exits 5', async () => {
    const me = await inspector(['--method', 'tools/call', '--tool-name', 'whoAmI', '--stored-auth-only']);
    expect(me.code, me.stderr).toBe(0);
    expect(resultOf(me).structuredContent.user).toMatchObject({ account: PERSON.account, displayName: PERSON.displayName, isAdmin: false });

    const created = await inspector(['--method', 'tools/call', '--tool-name', 'createProject', '--tool-arg', 'name=Made from the Inspector', '--stored-auth-only']);
    expect(created.code, created.stderr).toBe(0);
    const project = resultOf(created).structuredContent.project;
    expect(project).toMatchObject({ name: 'Made from the Inspector', role: 'owner', version: 1 });

    // --tool-arg values that are JSON (arrays here) go as JSON.
    const clientArgs = [`projectId=${project.projectId}`, 'clientType=web', 'displayName=Portal', 'redirectUris=["https://portal.example.com/cb"]', 'scopeWhitelist=["openid"]'];
    const registered = await inspector(['--method', 'tools/call', '--tool-name', 'registerClient', '--tool-arg', ...clientArgs, '--stored-auth-only']);
    expect(registered.code, registered.stderr).toBe(0);
    expect(resultOf(registered).structuredContent).toMatchObject({ client: { redirectUris: ['https://portal.example.com/cb'] }, clientSecret: expect.any(String) });

    const refused = await inspector(['--method', 'tools/call', '--tool-name', 'deleteProject', '--tool-arg', `projectId=${project.projectId}`, 'expectedProjectVersion=1', '--stored-auth-only']);
    expect(refused.code).toBe(5);
    expect(resultOf(refused)).toMatchObject({ isError: true, structuredContent: { error: 'project_not_archived' } });

    const person = agentOver(sesame.url);
    await person.login(PERSON.account, PERSON.password);
    const trail = (await person.call('GET', `/projects/${project.projectId}/audit-logs`)).body.auditLogs as Structured[];
    expect(trail.map((entry) => entry.action)).toEqual(expect.arrayContaining(['project.create']));
    const subjectId = resultOf(me).structuredContent.user.subjectId as string;
    expect(trail.every((entry) => entry.actorSubjectId === subjectId && entry.surface === 'mcp' && entry.viaClientId === documentUrl() && entry.viaClientName === 'MCP Inspector')).toBe(true);
  });

  it('takes an access token got elsewhere in an Authorization header instead, with no store of its own', async () => {
    const elsewhere = new PreRegisteredAssistant(documentUrl(), callbackUrl);
    await authorizeWithScope(sesame.url, elsewhere, 'sesame:read', signInOverHttp(sesame.url, PERSON));
    const emptyStore = mkdtempSync(join(home, 'empty-store-'));
    const me = await inspector(['--method', 'tools/call', '--tool-name', 'whoAmI', '--header', `Authorization: Bearer ${elsewhere.tokens()!.access_token}`], { storeHome: emptyStore });
    expect(me.code, me.stderr).toBe(0);
    expect(resultOf(me).structuredContent.user).toMatchObject({ account: PERSON.account });

    const readOnly = await inspector(['--method', 'tools/list', '--header', `Authorization: Bearer ${elsewhere.tokens()!.access_token}`], { storeHome: emptyStore });
    const names = (resultOf(readOnly).tools as Structured[]).map((tool) => tool.name);
    expect(names).toContain('whoAmI');
    expect(names).not.toContain('createProject'); // a sesame:read token: the changing tools are not listed
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/domain/clock.ts';
import { createServices, type Services } from '../../src/services/index.ts';
import { openDatabase, type OpenedDatabase } from '../../src/storage/database.ts';
import { createTestDatabase, TEST_ENGINES, type TestDatabase } from '../helpers/engines.ts';
import { BIN_PATH, runSesame, type SesameRun } from './run-sesame.ts';

/** A sign-in from inside the process, with no address: only the per-account limit counts it. */
const signInHere = { ip: null, surface: 'management' } as const;

const FIRST_PASSWORD = 'correct horse -._~ battery';
const SECOND_PASSWORD = 'second staple 9f3k!';
const THIRD_PASSWORD = 'third-password-x7';

describe.each(TEST_ENGINES)('sesame user commands on %s', (engine) => {
  let database: TestDatabase;
  let opened: OpenedDatabase;
  let services: Services;
  const runs: SesameRun[] = [];
  const sesame = async (args: string[], input?: string) => {
    const run = await runSesame(args, { databaseUrl: database.url, ...(input === undefined ? {} : { input }) });
    runs.push(run);
    return run;
  };

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    opened = openDatabase(database.url);
    services = createServices({ db: opened.db, engine: opened.engine, clock: systemClock });
  });
  afterAll(async () => {
    await opened.close();
    await database.drop();
  });

  it('db migrate applies the migrations once and names them', async () => {
    const first = await sesame(['db', 'migrate']);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('applied 20261121000000-initial-schema');
    const second = await sesame(['db', 'migrate']);
    expect(second.code).toBe(0);
    expect(second.stdout).not.toContain('applied');
    expect(second.stdout).toContain(`${engine} database is up to date`);
  });

  it('user add prints exactly the subject and account as JSON, and the user can sign in', async () => {
    const run = await sesame(
      ['user', 'add', '--account', 'Alice', '--display-name', 'Alice Example', '--email', 'alice@example.com', '--email-verified', '--student-status', 'active', '--admin', '--password-stdin'],
      `${FIRST_PASSWORD}\nthis second line is not part of the password\n`,
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(Object.keys(printed).sort()).toEqual(['account', 'subjectId']);
    expect(printed.account).toBe('Alice');
    const signedIn = await services.users.authenticate('alice', FIRST_PASSWORD, signInHere);
    expect(signedIn).toMatchObject({ subjectId: printed.subjectId, displayName: 'Alice Example', email: 'alice@example.com', emailVerified: true, studentStatus: 'active', isAdmin: true, status: 'active' });
  });

  it('refuses a second account differing only in case with exit 1 and a clear message, creating nothing', async () => {
    const before = await services.users.countUsers();
    const run = await sesame(['user', 'add', '--account', 'ALICE', '--display-name', 'Someone Else', '--password-stdin'], `${SECOND_PASSWORD}\n`);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('The account ALICE already exists');
    expect(run.stderr).toContain('account: already taken');
    expect(await services.users.countUsers()).toBe(before);
  });

  it('reports a service validation error with its field errors and exit 1', async () => {
    const run = await sesame(['user', 'add', '--account', 'bob', '--display-name', 'Bob', '--email', 'not-an-address', '--password-stdin'], 'short\n');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('email: must be an email address');
    expect(await services.users.findByAccount('bob')).toBeNull();
  });

  it('user passwd sets a new password read from stdin (CRLF stripped); the old one stops working', async () => {
    const run = await sesame(['user', 'passwd', '--account', 'alice', '--password-stdin'], `${SECOND_PASSWORD}\r\n`);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ account: 'Alice', passwordChanged: true });
    expect(await services.users.authenticate('alice', FIRST_PASSWORD, signInHere)).toBeNull();
    expect(await services.users.authenticate('alice', SECOND_PASSWORD, signInHere)).not.toBeNull();

    const withoutNewline = await sesame(['user', 'passwd', '--account', 'ALICE', '--password-stdin'], THIRD_PASSWORD);
    expect(withoutNewline.code).toBe(0);
    expect(await services.users.authenticate('alice', THIRD_PASSWORD, signInHere)).not.toBeNull();
  });

  it('user disable stops sign-in and user enable restores it', async () => {
    const disabled = await sesame(['user', 'disable', '--account', 'alice']);
    expect(disabled.code).toBe(0);
    expect(JSON.parse(disabled.stdout)).toMatchObject({ account: 'Alice', status: 'disabled' });
    expect(await services.users.authenticate('alice', THIRD_PASSWORD, signInHere)).toBeNull();

    const enabled = await sesame(['user', 'enable', '--account', 'alice']);
    expect(enabled.code).toBe(0);
    expect(JSON.parse(enabled.stdout)).toMatchObject({ status: 'active' });
    expect(await services.users.authenticate('alice', THIRD_PASSWORD, signInHere)).not.toBeNull();
  });

  it('names an unknown account with exit 1', async () => {
    const run = await sesame(['user', 'disable', '--account', 'nobody']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('No user has the account "nobody"');
  });

  it('user list prints one JSON object per user, or a table, and never a hash', async () => {
    await sesame(['user', 'add', '--account', 'carol', '--display-name', 'Carol', '--password-stdin'], 'carol password 1\n');
    const run = await sesame(['user', 'list']);
    expect(run.code).toBe(0);
    const users = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(users.map((u) => u.account)).toEqual(['Alice', 'carol']);
    expect(users[0]).toMatchObject({ displayName: 'Alice Example', isAdmin: true, status: 'active', studentStatus: 'active' });
    expect(users[0]!.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    const table = await sesame(['user', 'list', '--format', 'table']);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^subjectId\s+account\s+displayName/);
    expect(table.stdout).toContain('carol');
    for (const output of [run.stdout, table.stdout]) expect(output).not.toMatch(/argon2|password/i);
  });

  it('the installed bin runs the same CLI', async () => {
    const run = await runSesame(['user', 'list', '--format', 'table'], { databaseUrl: database.url, entry: BIN_PATH });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Alice');
  });

  it('audits every change with surface cli, and no password appears in any output or audit entry', async () => {
    const entries = await opened.db.selectFrom('audit_log').selectAll().orderBy('at').execute();
    expect(entries.map((e) => e.action)).toEqual(['user.create', 'user.password_reset', 'user.password_reset', 'user.update', 'user.update', 'user.create']);
    expect(new Set(entries.map((e) => e.surface))).toEqual(new Set(['cli']));
    const everything = JSON.stringify(entries) + runs.map((r) => r.stdout + r.stderr).join('\n');
    for (const password of [FIRST_PASSWORD, SECOND_PASSWORD, THIRD_PASSWORD, 'carol password 1']) expect(everything).not.toContain(password);
    expect(everything).not.toContain('$argon2');
  });
});

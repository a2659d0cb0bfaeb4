import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSesame } from './run-sesame.ts';

// Usage mistakes are caught before the database is opened: the SQLite file must never appear.
const dir = mkdtempSync(join(tmpdir(), 'sesame-cli-usage-'));
const databaseFile = join(dir, 'untouched.db');
const sesame = (args: string[], input?: string) => runSesame(args, { databaseUrl: `sqlite:${databaseFile}`, ...(input === undefined ? {} : { input }) });

describe('sesame usage', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints help with every command and exits 0', async () => {
    for (const args of [['help'], ['--help'], ['-h']]) {
      const run = await sesame(args);
      expect(run.code).toBe(0);
      for (const command of ['user add', 'user passwd', 'user disable', 'user enable', 'user list', 'keys list', 'keys rotate', 'clients import', 'db migrate']) {
        expect(run.stdout).toContain(command);
      }
    }
    const commandHelp = await sesame(['user', 'add', '--help']);
    expect(commandHelp.code).toBe(0);
    expect(commandHelp.stdout).toContain('usage: sesame user add --account NAME --display-name TEXT');
    expect((await sesame(['help', 'clients', 'import'])).stdout).toContain('usage: sesame clients import FILE');
  });

  it.each([
    ['no command at all', [], ''],
    ['an unknown command', ['frobnicate'], 'unknown command "frobnicate"'],
    ['an unknown subcommand', ['user', 'delete', '--account', 'x'], 'unknown command "user delete"'],
    ['a group without its command', ['keys'], '"keys" needs a command'],
    ['an unknown option', ['user', 'list', '--everything'], 'unknown option --everything'],
    ['a missing required flag', ['user', 'add', '--display-name', 'X', '--password-stdin'], 'missing --account'],
    ['a flag without its value', ['user', 'disable', '--account'], '--account needs a value'],
    ['a missing --password-stdin', ['user', 'add', '--account', 'x', '--display-name', 'X'], 'missing --password-stdin'],
    ['a password on the command line', ['user', 'passwd', '--account', 'x', '--password', 'hunter2hunter2'], '--password is not accepted'],
    ['a bad student status', ['user', 'add', '--account', 'x', '--display-name', 'X', '--student-status', 'alumnus', '--password-stdin'], '--student-status must be one of'],
    ['an empty stdin for the password', ['user', 'add', '--account', 'x', '--display-name', 'X', '--password-stdin'], 'standard input held no password'],
    ['clients import without a file', ['clients', 'import'], 'missing FILE'],
    ['a stray argument', ['db', 'migrate', 'now'], 'unexpected argument "now"'],
    ['a bad list format', ['keys', 'list', '--format', 'xml'], '--format must be json or table'],
  ])('exits 2 on %s, saying what is wrong, without touching the database', async (_, args, message) => {
    const run = await sesame(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(message);
    expect(existsSync(databaseFile)).toBe(false);
  });

  it('never echoes a password given on the command line', async () => {
    const run = await sesame(['user', 'passwd', '--account', 'x', '--password=hunter2hunter2']);
    expect(run.code).toBe(2);
    expect(run.stdout + run.stderr).not.toContain('hunter2hunter2');
  });

  it('names the variable when the configuration is wrong, with exit 1', async () => {
    const run = await runSesame(['user', 'list'], { databaseUrl: 'mysql://db.example.com/sesame' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('DATABASE_URL');
  });
});

import type { CliCommand } from './command.ts';
import { parseCommandArgs } from './parse-command-args.ts';

const dbMigrate: CliCommand = {
  words: ['db', 'migrate'],
  usage: 'sesame db migrate',
  summary: 'apply pending database migrations and print their names (every command does this first)',
  async run(args, env) {
    parseCommandArgs(this, args, { options: {} });
    const { appliedMigrations, engine } = await env.open();
    for (const name of appliedMigrations) env.io.stdout.write(`applied ${name}\n`);
    env.io.stdout.write(`${engine} database is up to date\n`);
  },
};

export const dbCommands: CliCommand[] = [dbMigrate];

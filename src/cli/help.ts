import type { CliCommand } from './command.ts';

export function generalHelp(commands: readonly CliCommand[]): string {
  const helpWords = 'help [COMMAND]';
  const width = Math.max(helpWords.length, ...commands.map((command) => command.words.join(' ').length));
  return [
    'sesame: manage a Sesame instance from the command line',
    '',
    'usage: sesame <command> [options]      (from a checkout: npm run --silent sesame -- <command> [options])',
    '',
    'commands:',
    ...commands.map((command) => `  ${command.words.join(' ').padEnd(width)}  ${command.summary}`),
    `  ${helpWords.padEnd(width)}  this text, or one command's options (also: sesame COMMAND --help)`,
    '',
    'Every command reads DATABASE_URL and the rest of the configuration as the server does, applies pending',
    'migrations first, and records each change in the audit log with surface "cli".',
    'Exit codes: 0 done, 1 the command failed (the message says why), 2 wrong usage.',
    'Details: docs/cli.md',
    '',
  ].join('\n');
}

export function commandHelp(command: CliCommand): string {
  return [`usage: ${command.usage}`, '', command.summary, ...(command.details ?? []), ''].join('\n');
}

export function groupHelp(group: string, commands: readonly CliCommand[]): string {
  return [`sesame ${group} commands:`, ...commands.map((command) => `  ${command.usage}`), ''].join('\n');
}

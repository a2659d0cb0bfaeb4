import { ConfigError } from '../config.ts';
import { AppError } from '../errors.ts';
import type { CliCommand, CliEnvironment, CliIo, CliRuntime } from './command.ts';
import { clientsCommands } from './clients-commands.ts';
import { dbCommands } from './db-commands.ts';
import { keysCommands } from './keys-commands.ts';
import { commandHelp, generalHelp, groupHelp } from './help.ts';
import { openRuntime } from './open-runtime.ts';
import { UsageError } from './usage-error.ts';
import { userCommands } from './user-commands.ts';

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

const COMMANDS: readonly CliCommand[] = [...userCommands, ...keysCommands, ...clientsCommands, ...dbCommands];

const isHelpFlag = (arg: string) => arg === '--help' || arg === '-h';

/** Runs one command line and returns the exit code; never throws. */
export async function runCli(argv: string[], io: CliIo, processEnv: NodeJS.ProcessEnv = process.env): Promise<number> {
  let opened: Awaited<ReturnType<typeof openRuntime>> | undefined;
  const env: CliEnvironment = {
    io,
    async open(): Promise<CliRuntime> {
      opened ??= await openRuntime(processEnv);
      return opened.runtime;
    },
  };
  try {
    const [first, ...rest] = argv;
    if (first === undefined) {
      io.stderr.write(generalHelp(COMMANDS));
      return EXIT.usage;
    }
    if (first === 'help' || isHelpFlag(first)) {
      io.stdout.write(helpFor(rest));
      return EXIT.ok;
    }
    const { command, args } = findCommand(argv);
    const optionArgs = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
    if (optionArgs.some(isHelpFlag)) {
      io.stdout.write(commandHelp(command));
      return EXIT.ok;
    }
    await command.run(args, env);
    return EXIT.ok;
  } catch (error) {
    return reportError(io, error);
  } finally {
    await opened?.close();
  }
}

function findCommand(argv: string[]): { command: CliCommand; args: string[] } {
  const [group, name, ...args] = argv;
  const inGroup = COMMANDS.filter((command) => command.words[0] === group);
  if (inGroup.length === 0) throw new UsageError(`unknown command "${group}"`);
  const command = inGroup.find((candidate) => candidate.words[1] === name);
  if (!command || name === undefined) {
    const known = inGroup.map((candidate) => candidate.words[1]).join(', ');
    throw new UsageError(name === undefined || name.startsWith('-') ? `"${group}" needs a command: ${known}` : `unknown command "${group} ${name}"; ${group} commands: ${known}`);
  }
  return { command, args };
}

function helpFor(words: string[]): string {
  const [group, name] = words;
  const inGroup = COMMANDS.filter((command) => command.words[0] === group);
  const command = inGroup.find((candidate) => candidate.words[1] === name);
  if (command) return commandHelp(command);
  if (inGroup.length > 0) return groupHelp(group!, inGroup);
  return generalHelp(COMMANDS);
}

function reportError(io: CliIo, error: unknown): number {
  if (error instanceof UsageError) {
    io.stderr.write(`sesame: ${error.message}\n${error.usage ? `usage: ${error.usage}\n` : ''}Run "sesame help" for the list of commands.\n`);
    return EXIT.usage;
  }
  if (error instanceof AppError) {
    const fieldLines = Object.entries(error.fieldErrors ?? {})
      .filter(([field, message]) => !(error.message.includes(field) && error.message.includes(message)))
      .map(([field, message]) => `  ${field}: ${message}\n`);
    io.stderr.write(`sesame: ${error.message} (${error.code})\n${fieldLines.join('')}`);
    return EXIT.failed;
  }
  if (error instanceof ConfigError) {
    io.stderr.write(`${error.message}\n`);
    return EXIT.failed;
  }
  io.stderr.write(`sesame: ${error instanceof Error ? error.message : String(error)}\n`);
  return EXIT.failed;
}

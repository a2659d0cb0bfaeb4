import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import type { CliCommand } from './command.ts';
import { UsageError } from './usage-error.ts';

interface ArgumentRules<T extends ParseArgsOptionsConfig> {
  options: T;
  /** Options that must be given a non-empty value. */
  required?: readonly (keyof T & string)[];
  /** Names of the positional arguments, all required. */
  positionals?: readonly string[];
}

/** node:util parseArgs, strict, with every mistake turned into a UsageError that names the flag. */
export function parseCommandArgs<T extends ParseArgsOptionsConfig>(command: Pick<CliCommand, 'usage'>, args: string[], rules: ArgumentRules<T>) {
  if (args.some((arg) => arg === '--password' || arg.startsWith('--password='))) {
    throw new UsageError('--password is not accepted: a password on the command line ends up in shell history and process lists. Pipe it in with --password-stdin.', command.usage);
  }
  let parsed;
  try {
    parsed = parseArgs({ args, options: rules.options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(describeParseError(error as Error & { code?: string }), command.usage);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  for (const name of rules.required ?? []) {
    const value = values[name];
    if (value === undefined || value === '') throw new UsageError(`missing --${name}`, command.usage);
  }
  const expected = rules.positionals ?? [];
  if (parsed.positionals.length < expected.length) throw new UsageError(`missing ${expected[parsed.positionals.length]}`, command.usage);
  if (parsed.positionals.length > expected.length) throw new UsageError(`unexpected argument "${parsed.positionals[expected.length]}"`, command.usage);
  return { values: parsed.values, positionals: parsed.positionals };
}

function describeParseError(error: Error & { code?: string }): string {
  const flag = /'(-[^' ]+)/.exec(error.message)?.[1];
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${flag ?? error.message}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (flag && /argument missing|ambiguous/.test(error.message)) return `${flag} needs a value (write ${flag}=VALUE for a value starting with "-")`;
      return error.message;
    default:
      return error.message;
  }
}

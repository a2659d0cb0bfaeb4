/** Wrong words or flags on the command line: printed with the usage, exit code 2. */
export class UsageError extends Error {
  readonly usage: string | undefined;
  constructor(message: string, usage?: string) {
    super(message);
    this.usage = usage;
  }
}

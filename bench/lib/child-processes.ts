import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** Sends a message to a forked child and waits for its reply to that message. */
export class IpcChild {
  readonly process: ChildProcess;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();

  constructor(child: ChildProcess, name: string) {
    this.process = child;
    child.on('message', (raw) => {
      const message = raw as { replyTo?: number; result?: unknown; error?: string };
      if (message.replyTo === undefined) return;
      const waiting = this.pending.get(message.replyTo);
      this.pending.delete(message.replyTo);
      if (message.error !== undefined) waiting?.reject(new Error(`${name}: ${message.error}`));
      else waiting?.resolve(message.result);
    });
    child.on('exit', (code, signal) => {
      for (const waiting of this.pending.values()) waiting.reject(new Error(`${name} exited (${signal ?? code}) before answering`));
      this.pending.clear();
    });
  }

  get pid(): number {
    return this.process.pid!;
  }

  ask<T>(message: Record<string, unknown>): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.process.send({ ...message, id });
    });
  }

  async stop(): Promise<void> {
    await stopProcess(this.process);
  }
}

/**
 * Forks a Node script with an IPC channel and waits for its `{ready: ...}` message, which carries
 * what the parent needs (a port). The child's stderr passes through so its failures are visible.
 */
export async function forkReady<R>(script: URL, name: string, options: { args?: string[]; env?: NodeJS.ProcessEnv; execArgv?: string[] } = {}): Promise<{ child: IpcChild; ready: R }> {
  const child = fork(script, options.args ?? [], {
    env: options.env ?? process.env,
    execArgv: options.execArgv ?? [],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const ready = await new Promise<R>((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`${name} exited (${code}) before it was ready`));
    child.once('exit', onExit);
    child.on('message', (message: { ready?: R }) => {
      if (message.ready === undefined) return;
      child.off('exit', onExit);
      resolve(message.ready);
    });
  });
  return { child: new IpcChild(child, name), ready };
}

/** Answers the parent's `ask` messages with the handler's result (or its error). */
export function answerParent(handler: (message: Record<string, unknown>) => Promise<unknown>): void {
  process.on('message', (raw) => {
    const message = raw as Record<string, unknown> & { id?: number };
    if (message.id === undefined) return;
    handler(message).then(
      (result) => process.send?.({ replyTo: message.id, result }),
      (error: unknown) => process.send?.({ replyTo: message.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    );
  });
  // The parent going away ends the child, whatever it was doing.
  process.on('disconnect', () => process.exit(0));
}

/** SIGTERM, then SIGKILL if it is still running after the grace period. */
export async function stopProcess(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}


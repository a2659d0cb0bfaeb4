import type { Argon2Rate } from '../ceilings/argon2-rate.ts';
import { forkReady, type IpcChild } from '../lib/child-processes.ts';

/** The ceiling of scenario 4, in a process of its own: argon2id verifications per second. */
export async function startArgon2Ceiling(): Promise<{ measure(concurrency: number, warmupMs: number, durationMs: number): Promise<Argon2Rate>; stop(): Promise<void> }> {
  const { child } = await forkReady<{ pid: number }>(new URL('../ceilings/argon2-rate.ts', import.meta.url), 'argon2id ceiling');
  const ipc: IpcChild = child;
  return {
    measure: (concurrency, warmupMs, durationMs) => ipc.ask<Argon2Rate>({ concurrency, warmupMs, durationMs }),
    stop: () => ipc.stop(),
  };
}

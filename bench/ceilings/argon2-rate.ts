/**
 * The ceiling of scenario 4: how many argon2id verifications per second this machine does with
 * Sesame's own parameters (verifyPassword in src/services/sign-in/passwords.ts), `concurrency` at a time,
 * in one process using every core (the verifications run on libuv's thread pool, as in Sesame).
 */
import { performance } from 'node:perf_hooks';
import { answerParent } from '../lib/child-processes.ts';
import { hashPassword, verifyPassword } from '../../src/services/sign-in/passwords.ts';

const PASSWORD = 'bench-password-for-argon2';

export interface Argon2Rate {
  concurrency: number;
  operations: number;
  elapsedMs: number;
  throughput: number;
  cpuMsPerOp: number;
}

async function verifyFor(hash: string, concurrency: number, durationMs: number): Promise<{ operations: number; elapsedMs: number }> {
  let operations = 0;
  const start = performance.now();
  const deadline = start + durationMs;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        if (!(await verifyPassword(hash, PASSWORD))) throw new Error('argon2id verification failed');
        operations += 1;
      }
    }),
  );
  return { operations, elapsedMs: performance.now() - start };
}

const stored = hashPassword(PASSWORD);

answerParent(async (message) => {
  const { concurrency, warmupMs, durationMs } = message as unknown as { concurrency: number; warmupMs: number; durationMs: number };
  const hash = await stored;
  await verifyFor(hash, concurrency, warmupMs);
  const cpuBefore = process.cpuUsage();
  const { operations, elapsedMs } = await verifyFor(hash, concurrency, durationMs);
  const cpu = process.cpuUsage(cpuBefore);
  const rate: Argon2Rate = { concurrency, operations, elapsedMs, throughput: operations / (elapsedMs / 1000), cpuMsPerOp: (cpu.user + cpu.system) / 1000 / operations };
  return rate;
});
process.send?.({ ready: { pid: process.pid } });

import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

// /proc reports CPU time in clock ticks (USER_HZ); almost always 100, asked once to be sure.
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

function cpuMsOf(statPath: string): number {
  const stat = readFileSync(statPath, 'utf8');
  // Fields after the command name, which may itself hold spaces and parentheses: state is [0], utime [11], stime [12].
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** User + system CPU time the process (all its threads) has used so far, in milliseconds. */
export const processCpuMs = (pid: number) => cpuMsOf(`/proc/${pid}/stat`);

/** The same for its main thread alone: JavaScript, without the thread pool (argon2id, crypto jobs) and V8's helper threads. */
export const mainThreadCpuMs = (pid: number) => cpuMsOf(`/proc/${pid}/task/${pid}/stat`);

function statusField(pid: number, name: string): number {
  const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match?.[1]) throw new Error(`no ${name} in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

/** The process's peak resident set since start or since the last resetPeakRss, in MiB. */
export const peakRssMb = (pid: number) => statusField(pid, 'VmHWM');
export const currentRssMb = (pid: number) => statusField(pid, 'VmRSS');

/** Starts a new peak-RSS window (writing 5 to clear_refs resets VmHWM to the current RSS). */
export function resetPeakRss(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

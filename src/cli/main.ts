import { runCli } from './run-cli.ts';

process.exitCode = await runCli(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });

#!/usr/bin/env node
// The installed `sesame` command: runs src/cli/main.ts in the Node that runs this file.
// Sesame's sources are TypeScript that Node runs directly (type stripping, Node >= 22.13).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  process.stderr.write(
    `sesame: needs Node.js 22.13 or later (this is ${process.version}). ` +
      'In a checkout, run `. scripts/node-env.sh` first, or use `npm run --silent sesame -- <command>`.\n',
  );
  process.exit(1);
}

const cli = new URL('../src/cli/main.ts', import.meta.url);
if (process.features.typescript) {
  await import(cli.href);
} else {
  // Node 22.13-22.17 strips types only when asked.
  const child = spawnSync(process.execPath, ['--experimental-strip-types', '--no-warnings', fileURLToPath(cli), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(child.status ?? 1);
}

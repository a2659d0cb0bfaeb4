// Part of `npm run check`: the console's committed contract must be what the server's contracts produce now.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { CONTRACT_FILES, generateContractFiles } from './management-contract.ts';

const generated = await generateContractFiles();
const stale = (Object.entries(CONTRACT_FILES) as [keyof typeof CONTRACT_FILES, string][]).filter(
  ([name, path]) => readFileSync(path, { encoding: 'utf8', flag: 'r' }) !== generated[name],
);
if (stale.length > 0) {
  const files = stale.map(([, path]) => relative(process.cwd(), path)).join(', ');
  process.stderr.write(`check: the console's API contract is out of date (${files}). Run \`npm run openapi:sync\` and commit the result.\n`);
  process.exit(1);
}

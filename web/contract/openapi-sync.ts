// `npm run openapi:sync`: rewrites the console's copy of the Management API contract and its types.
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { CONTRACT_FILES, generateContractFiles } from './management-contract.ts';

const generated = await generateContractFiles();
for (const [name, path] of Object.entries(CONTRACT_FILES) as [keyof typeof CONTRACT_FILES, string][]) {
  writeFileSync(path, generated[name]);
  process.stdout.write(`openapi:sync: wrote ${relative(process.cwd(), path)}\n`);
}

import { cliActor } from '../domain/actor.ts';
import { importClientsFile } from '../startup/first-deployment.ts';
import type { CliCommand } from './command.ts';
import { printJson } from './output.ts';
import { parseCommandArgs } from './parse-command-args.ts';

const clientsImport: CliCommand = {
  words: ['clients', 'import'],
  usage: 'sesame clients import FILE',
  summary: 'import the first-deployment clients file, once, while no client exists; prints {"imported": [clientId, ...]}',
  details: [
    'FILE has the format of OIDC_CLIENTS_CONFIG_PATH: {"clients": [{"clientId", "clientType", "clientSecret"?, "displayName", ...}]}.',
    'Every entry is checked with the rules of the management APIs; one bad entry imports nothing.',
    'The clients go into a new "system" project owned by the oldest active administrator; secrets are stored as digests only.',
  ],
  async run(args, env) {
    const { positionals } = parseCommandArgs(this, args, { options: {}, positionals: ['FILE'] });
    const { services } = await env.open();
    const { imported } = await importClientsFile(services, cliActor, positionals[0]!);
    printJson(env.io, { imported });
    env.io.stderr.write(
      imported.length > 0
        ? `sesame: imported ${imported.length} client${imported.length === 1 ? '' : 's'} into the "system" project\n`
        : 'sesame: nothing imported: clients already exist, and this import runs only while there are none (or the file lists no clients)\n',
    );
  },
};

export const clientsCommands: CliCommand[] = [clientsImport];

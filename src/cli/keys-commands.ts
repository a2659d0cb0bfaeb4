import { resolveInstanceSecrets } from '../instance-secrets.ts';
import { listSigningKeys, loadSigningJwks, rotateSigningKeys, SIGNING_ALGS, type SigningKeyInfo } from '../oidc/signing-keys.ts';
import type { CliCommand } from './command.ts';
import { FORMAT_OPTION, isoTime, printJson, printRecords, recordFormat } from './output.ts';
import { parseCommandArgs } from './parse-command-args.ts';

/** What may be shown of a key: never its private (or even public) material. */
const keyRecord = (key: SigningKeyInfo) => ({
  kid: key.kid,
  alg: key.alg,
  status: key.status,
  createdAt: isoTime(key.createdAt),
  retiredAt: isoTime(key.retiredAt),
  publishedUntil: isoTime(key.publishedUntil),
});

const keysList: CliCommand = {
  words: ['keys', 'list'],
  usage: 'sesame keys list [--format json|table]',
  summary: 'list the signing keys, newest first: kid, alg, status, created, retired, published until',
  async run(args, env) {
    const { values } = parseCommandArgs(this, args, { options: FORMAT_OPTION });
    const format = recordFormat(values.format, this.usage);
    const { db } = await env.open();
    const keys = await listSigningKeys(db);
    if (keys.length === 0) env.io.stderr.write('sesame: no signing keys yet; the server creates them on its first start, or run: sesame keys rotate\n');
    printRecords(env.io, keys.map(keyRecord), format);
  },
};

const keysRotate: CliCommand = {
  words: ['keys', 'rotate'],
  usage: 'sesame keys rotate',
  summary: 'add a new signing key per algorithm (new kid) that signs from now on; the previous keys stay published until their tokens expire',
  details: [
    'Run it with the server\'s OIDC_KEY_ENCRYPTION_SECRET: the new private keys are encrypted with it.',
    'Running servers start signing with the new keys within 30 seconds, without a restart.',
  ],
  async run(args, env) {
    parseCommandArgs(this, args, { options: {} });
    const { config, db, clock } = await env.open();
    const secrets = await resolveInstanceSecrets(config, db, clock);
    if (secrets.generated.includes('OIDC_KEY_ENCRYPTION_SECRET')) {
      env.io.stderr.write('sesame: warning: OIDC_KEY_ENCRYPTION_SECRET was not set; generated one and stored it in the database (set it explicitly in production)\n');
    }
    const current = await listSigningKeys(db);
    if (SIGNING_ALGS.every((alg) => current.some((key) => key.alg === alg && key.status === 'active'))) {
      // Fails, naming the variable, when this secret is not the one the existing keys were stored with:
      // keys encrypted with another secret would be unreadable to the server.
      await loadSigningJwks(db, clock, secrets.keyEncryptionSecret);
    }
    const { created, retired } = await rotateSigningKeys(db, clock, secrets.keyEncryptionSecret);
    printJson(env.io, { created: created.map(keyRecord), retired: retired.map(keyRecord) });
  },
};

export const keysCommands: CliCommand[] = [keysList, keysRotate];

import { resolveInstanceSecrets } from '../startup/instance-secrets.ts';
import { listSigningKeys, loadSigningJwks, rotateSigningKeys, SIGNING_ALGS, type SigningKeyInfo } from '../oidc/signing-keys.ts';
import { createStore } from '../storage/store.ts';
import type { CliCommand } from './command.ts';
import { FORMAT_OPTION, isoTime, printJson, printRecords, recordFormat } from './output.ts';
import { parseCommandArgs } from './parse-command-args.ts';

/** What may be shown of a key: never its private (or even public) material. */
const keyRecord = (key: SigningKeyInfo) => ({
  kid: key.kid,
  alg: key.alg,
  status: key.status,
  createdAt: isoTime(key.createdAt),
  signsFrom: isoTime(key.signsFrom),
  retiredAt: isoTime(key.retiredAt),
  publishedUntil: isoTime(key.publishedUntil),
});

const keysList: CliCommand = {
  words: ['keys', 'list'],
  usage: 'sesame keys list [--format json|table]',
  summary: 'list the signing keys, newest first: kid, alg, status, created, signs from, retired, published until',
  async run(args, env) {
    const { values } = parseCommandArgs(this, args, { options: FORMAT_OPTION });
    const format = recordFormat(values.format, this.usage);
    const { db, engine } = await env.open();
    const keys = await listSigningKeys(createStore(db, engine));
    if (keys.length === 0) env.io.stderr.write('sesame: no signing keys yet; the server creates them on its first start, or run: sesame keys rotate\n');
    printRecords(env.io, keys.map(keyRecord), format);
  },
};

const keysRotate: CliCommand = {
  words: ['keys', 'rotate'],
  usage: 'sesame keys rotate',
  summary: 'add a new signing key per algorithm (new kid), published at once, signing after SIGNING_KEY_REFRESH_SECONDS + 60 s; the previous keys sign until then and stay published until their tokens expire',
  details: [
    'Run it with the server\'s OIDC_KEY_ENCRYPTION_SECRET and SIGNING_KEY_REFRESH_SECONDS: the new private keys are encrypted with the one,',
    'and the other sets when they start signing (90 seconds from now by default), once every running server publishes them.',
  ],
  async run(args, env) {
    parseCommandArgs(this, args, { options: {} });
    const { config, db, engine, clock } = await env.open();
    const store = createStore(db, engine);
    const secrets = await resolveInstanceSecrets(config, store, clock);
    if (secrets.generated.includes('OIDC_KEY_ENCRYPTION_SECRET')) {
      env.io.stderr.write('sesame: warning: OIDC_KEY_ENCRYPTION_SECRET was not set; generated one and stored it in the database (set it explicitly in production)\n');
    }
    const current = await listSigningKeys(store);
    if (SIGNING_ALGS.every((alg) => current.some((key) => key.alg === alg && key.status === 'active'))) {
      // Fails, naming the variable, when this secret is not the one the existing keys were stored with:
      // keys encrypted with another secret would be unreadable to the server.
      await loadSigningJwks(store, clock, secrets.keyEncryptionSecret);
    }
    const { created, retired } = await rotateSigningKeys(store, clock, secrets.keyEncryptionSecret, { keyRefreshSeconds: config.signingKeyRefreshSeconds });
    printJson(env.io, { created: created.map(keyRecord), retired: retired.map(keyRecord) });
    const { createdAt, signsFrom } = created.reduce((latest, key) => (key.signsFrom > latest.signsFrom ? key : latest));
    const wait = Math.round((signsFrom - createdAt) / 1000);
    env.io.stderr.write(wait > 0
      ? `sesame: the new keys are published now and start signing at ${isoTime(signsFrom)} (${wait} s after the rotation); the previous keys sign until then\n`
      : 'sesame: no key signed before; the new keys sign from now on\n');
  },
};

export const keysCommands: CliCommand[] = [keysList, keysRotate];

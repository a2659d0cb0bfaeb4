import type { CliIo } from './command.ts';
import { UsageError } from './usage-error.ts';

/**
 * The password for --password-stdin: the first line of standard input, its line ending removed.
 * At a terminal it prompts without echo; it never comes from argv, where shell history would keep it.
 */
export async function readPassword(io: CliIo, prompt = 'Password: '): Promise<string> {
  const password = io.stdin.isTTY && io.stdin.setRawMode ? await promptWithoutEcho(io, prompt) : await readFirstLine(io.stdin);
  if (password === null || password === '') {
    throw new UsageError('--password-stdin: standard input held no password. Pipe it in, e.g. printf \'%s\\n\' "$PASSWORD" | sesame ...');
  }
  return password;
}

async function readFirstLine(stdin: CliIo['stdin']): Promise<string | null> {
  stdin.setEncoding('utf8');
  let text = '';
  let sawInput = false;
  // Leaving the loop early destroys the stream, so a writer that keeps stdin open cannot hold the process.
  for await (const chunk of stdin as AsyncIterable<string>) {
    sawInput = true;
    text += chunk;
    if (text.includes('\n')) break;
  }
  if (!sawInput) return null;
  return text.split('\n', 1)[0]!.replace(/\r$/, '');
}

function promptWithoutEcho(io: CliIo, prompt: string): Promise<string> {
  const { stdin, stderr } = io;
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = () => {
      stdin.setRawMode!(false);
      stdin.off('data', onData);
      stdin.pause();
      stderr.write('\n');
    };
    const onData = (chunk: string) => {
      for (const character of chunk) {
        if (character === '\r' || character === '\n' || character === '\u0004') {
          finish();
          resolve(value);
          return;
        }
        if (character === '\u0003') {
          finish();
          reject(new UsageError('cancelled: no password entered'));
          return;
        }
        value = character === '\u007f' || character === '\b' ? value.slice(0, -1) : value + character;
      }
    };
    stderr.write(prompt);
    stdin.setEncoding('utf8');
    stdin.setRawMode!(true);
    stdin.on('data', onData);
    stdin.resume();
  });
}

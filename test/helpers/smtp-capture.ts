import { SMTPServer } from 'smtp-server';
import { freePort } from './oidc-server.ts';

/** One message as the SMTP server received it, its text and HTML parts decoded. */
export interface CapturedMail {
  envelopeTo: string[];
  headers: Record<string, string>;
  subject: string;
  messageId: string;
  text: string;
  html: string;
  raw: string;
  /** Date.now() when the server accepted it. */
  receivedAt: number;
}

function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of block.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? '7bit').toLowerCase()) {
    case 'quoted-printable': {
      const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => `%${hex}`);
      return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'));
    }
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    default:
      return body;
  }
}

/** Walks a MIME tree and collects its text/plain and text/html parts (a small parser: enough for Sesame's mails). */
function collectParts(raw: string, into: { text: string; html: string }): Record<string, string> {
  const split = raw.indexOf('\r\n\r\n');
  const headers = parseHeaders(split < 0 ? raw : raw.slice(0, split));
  const body = split < 0 ? '' : raw.slice(split + 4);
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    for (const part of body.split(`--${boundary}`).slice(1)) {
      if (part.startsWith('--')) break;
      collectParts(part.replace(/^\r\n/, ''), into);
    }
  } else if (/^text\/html/i.test(type)) {
    into.html += decodeBody(body, headers['content-transfer-encoding']);
  } else if (/^text\/plain/i.test(type)) {
    into.text += decodeBody(body, headers['content-transfer-encoding']);
  }
  return headers;
}

/** RFC 2047 encoded words (`=?UTF-8?B?...?=`), as a non-ASCII subject arrives; the space between two of them is not text. */
function decodeEncodedWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_match, _charset: string, encoding: string, data: string) =>
      encoding.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : decodeBody(data.replace(/_/g, ' '), 'quoted-printable'),
    );
}

export function parseMail(raw: string, envelopeTo: string[]): CapturedMail {
  const parts = { text: '', html: '' };
  const headers = collectParts(raw, parts);
  return { envelopeTo, headers, subject: decodeEncodedWords(headers.subject ?? ''), messageId: headers['message-id'] ?? '', text: parts.text, html: parts.html, raw, receivedAt: Date.now() };
}

export interface SmtpCapture {
  port: number;
  /** SMTP_URL for Sesame. */
  url: string;
  mails: CapturedMail[];
  /** Resolves with the first mail (received so far or later) matching `accept`. */
  waitFor(accept: (mail: CapturedMail) => boolean, timeoutMs?: number): Promise<CapturedMail>;
  /** Waits until `count` mails match `accept`. */
  waitForCount(accept: (mail: CapturedMail) => boolean, count: number, timeoutMs?: number): Promise<CapturedMail[]>;
  /** Stops listening (a mail server outage); `start` listens again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

/**
 * A real SMTP server on a free loopback port that keeps every message it accepts. It offers
 * STARTTLS with smtp-server's self-signed certificate, as a local relay often does.
 */
export async function startSmtpCapture(): Promise<SmtpCapture> {
  const port = await freePort();
  const mails: CapturedMail[] = [];
  let server: SMTPServer | null = null;

  function listen(): Promise<void> {
    const created = new SMTPServer({
      authOptional: true,
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          mails.push(parseMail(Buffer.concat(chunks).toString('utf8'), session.envelope.rcptTo.map((to) => to.address)));
          callback();
        });
      },
    });
    created.on('error', () => {});
    server = created;
    return new Promise((resolve, reject) => {
      created.server.once('error', reject);
      created.listen(port, '127.0.0.1', () => resolve());
    });
  }

  async function waitForCount(accept: (mail: CapturedMail) => boolean, count: number, timeoutMs = 15_000): Promise<CapturedMail[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const matching = mails.filter(accept);
      if (matching.length >= count) return matching;
      if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${count} mail(s); ${matching.length} arrived (${mails.length} in all)`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  await listen();
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitFor: async (accept, timeoutMs) => (await waitForCount(accept, 1, timeoutMs))[0]!,
    waitForCount,
    async stop() {
      const current = server;
      server = null;
      if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
    },
    start: listen,
  };
}

/** The token of the first link to `{issuer}{path}` in the mail's text part (and the same link must be in its HTML). */
export function linkToken(mail: CapturedMail, issuer: string, path: string): string {
  const pattern = new RegExp(`${issuer.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}${path}([0-9A-Za-z]+)`);
  const token = pattern.exec(mail.text)?.[1];
  if (!token) throw new Error(`no ${path} link in the mail's text:\n${mail.text}`);
  if (!mail.html.includes(`${issuer}${path}${token}`)) throw new Error(`the mail's HTML lacks the link of its text:\n${mail.html}`);
  return token;
}

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A throwaway certificate authority and a certificate it signed for `localhost` and 127.0.0.1, made with the openssl command. */
export interface ThrowawayTls {
  /** The CA certificate's file: what NODE_EXTRA_CA_CERTS names for the process that must trust it. */
  caPath: string;
  key: string;
  cert: string;
  remove(): void;
}

export function makeThrowawayTls(): ThrowawayTls {
  const dir = mkdtempSync(join(tmpdir(), 'sesame-cimd-tls-'));
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=Sesame test CA');
  run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost');
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n');
  run('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '1', '-extfile', 'san.ext');
  return {
    caPath: join(dir, 'ca.pem'),
    key: readFileSync(join(dir, 'server.key'), 'utf8'),
    cert: readFileSync(join(dir, 'server.pem'), 'utf8'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface DocumentAnswer {
  status?: number;
  headers?: Record<string, string>;
  body: string;
  /** How long the server waits before it answers (a slow host). */
  delayMs?: number;
}

/** An HTTPS server on 127.0.0.1 answering each path with what the test put there; every request's path is counted. */
export interface MetadataDocumentServer {
  port: number;
  /** `https://localhost:<port><path>` */
  url(path: string): string;
  serve(path: string, answer: DocumentAnswer | object): void;
  requests: string[];
  close(): Promise<void>;
}

export async function startMetadataDocumentServer(tls: ThrowawayTls): Promise<MetadataDocumentServer> {
  const answers = new Map<string, DocumentAnswer>();
  const requests: string[] = [];
  const server: Server = createServer({ key: tls.key, cert: tls.cert }, (request, response) => {
    const path = new URL(request.url ?? '/', 'https://localhost').pathname;
    requests.push(path);
    const answer = answers.get(path);
    if (!answer) return void response.writeHead(404).end();
    const send = () => void response.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers }).end(answer.body);
    if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    url: (path) => `https://localhost:${port}${path}`,
    serve(path, answer) {
      answers.set(path, 'body' in answer && typeof (answer as DocumentAnswer).body === 'string' ? (answer as DocumentAnswer) : { body: JSON.stringify(answer) });
    },
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

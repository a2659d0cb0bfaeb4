import { createServer } from 'node:http';
import { freePort } from './oidc-server.ts';

/** Where an assistant (a native client, RFC 8252) receives its authorization code: a loopback listener on a free port. */
export interface LoopbackCallback {
  port: number;
  /** `http://127.0.0.1:{port}/callback`. */
  redirectUri: string;
  /** Every code received, in order. */
  codes: string[];
  close(): Promise<void>;
}

export async function startLoopbackCallback(): Promise<LoopbackCallback> {
  const codes: string[] = [];
  const port = await freePort();
  const server = createServer((request, response) => {
    const code = new URL(request.url ?? '/', 'http://127.0.0.1').searchParams.get('code');
    if (code) codes.push(code);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Done</title><h1>You can close this window</h1>');
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { port, redirectUri: `http://127.0.0.1:${port}/callback`, codes, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

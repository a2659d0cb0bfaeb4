import { createServer } from 'node:http';
import { freePort } from './oidc-server.ts';

export interface RelyingPartyPages {
  /** `http://127.0.0.1:{port}`: register `${origin}/callback` and the like as the client's URIs. */
  origin: string;
  close(): Promise<void>;
}

/** The relying party's own pages on a free loopback port: every path answers a page whose heading names it. */
export async function startRelyingPartyPages(): Promise<RelyingPartyPages> {
  const port = await freePort();
  const server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html lang="en"><title>RP</title><h1>Relying party at ${new URL(request.url ?? '/', 'http://rp').pathname}</h1></html>`);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

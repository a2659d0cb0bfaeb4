import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface HttpRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Every request any connection of this process has sent (a phase reads it before and after). */
export const requestCounter = { sent: 0 };

/**
 * One keep-alive HTTP/1.1 connection, used by one virtual user one request at a time (as a
 * load tool's connection is): plain node:http, so the generator spends little CPU per request.
 */
export class HttpConnection {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  private readonly host: string;
  private readonly port: number;

  constructor(origin: string) {
    const url = new URL(origin);
    this.host = url.hostname;
    this.port = Number(url.port);
  }

  send(req: HttpRequest): Promise<HttpResponse> {
    requestCounter.sent += 1;
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = { ...req.headers };
      if (req.body !== undefined) headers['content-length'] = Buffer.byteLength(req.body);
      const outgoing = httpRequest({ agent: this.agent, host: this.host, port: this.port, method: req.method ?? 'GET', path: req.path, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      });
      outgoing.on('error', reject);
      outgoing.end(req.body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

interface StoredCookie {
  name: string;
  value: string;
  path: string;
}

/** A browser's cookies for one origin, honouring cookie paths (oidc-provider scopes its interaction cookies by path). */
export class CookieJar {
  private cookies: StoredCookie[] = [];

  remember(response: HttpResponse, requestPath: string): void {
    const setCookie = response.headers['set-cookie'] ?? [];
    for (const header of setCookie) {
      const [pair = '', ...attributes] = header.split(';').map((part) => part.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const pathAttribute = attributes.find((a) => a.toLowerCase().startsWith('path='));
      const path = pathAttribute ? pathAttribute.slice(5) : requestPath.split('?')[0]!.replace(/\/[^/]*$/, '') || '/';
      const expired = attributes.some((a) => /^expires=/i.test(a) && Date.parse(a.slice(8)) <= Date.now()) || attributes.some((a) => /^max-age=0$/i.test(a));
      this.cookies = this.cookies.filter((c) => !(c.name === name && c.path === path));
      if (!expired && value !== '') this.cookies.push({ name, value, path });
    }
  }

  header(requestPath: string): string {
    const path = requestPath.split('?')[0]!;
    return this.cookies
      .filter((c) => c.path === '/' || path === c.path || path.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  copy(): CookieJar {
    const jar = new CookieJar();
    jar.cookies = this.cookies.map((c) => ({ ...c }));
    return jar;
  }
}

import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

interface Link {
  client: Socket;
  upstream: Socket;
}

/**
 * A TCP proxy in front of a server (PostgreSQL) that a fault test can break in two ways: `cut()` closes
 * the listener and every connection, as a crashed database or a refusing host would; `silence()` keeps
 * accepting connections but forwards nothing either way, as a network that drops packets would (the
 * bytes wait, as TCP retransmits them, and flow again after `restore()`).
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  const links = new Set<Link>();
  let server: Server | undefined;
  let port = 0;
  let silent = false;

  const forward = ({ client, upstream }: Link) => {
    client.pipe(upstream);
    upstream.pipe(client);
  };
  const hold = ({ client, upstream }: Link) => {
    client.unpipe(upstream);
    upstream.unpipe(client);
    client.pause();
    upstream.pause();
  };

  async function listen(): Promise<void> {
    server = createServer((client) => {
      const link: Link = { client, upstream: createConnection(target) };
      links.add(link);
      const drop = () => {
        client.destroy();
        link.upstream.destroy();
        links.delete(link);
      };
      client.on('error', drop).on('close', drop);
      link.upstream.on('error', drop).on('close', drop);
      if (silent) hold(link);
      else forward(link);
    });
    await new Promise<void>((resolve, reject) => {
      server?.once('error', reject);
      server?.listen(port, '127.0.0.1', () => resolve());
    });
    port = (server.address() as AddressInfo).port;
  }

  await listen();
  return {
    get port() {
      return port;
    },
    /** Refuses new connections and kills the open ones. */
    async cut(): Promise<void> {
      const closed = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      for (const { client, upstream } of links) {
        client.destroy();
        upstream.destroy();
      }
      links.clear();
      await closed;
      server = undefined;
    },
    /** Accepts connections, open ones stay open, and nothing is forwarded any more. */
    silence(): void {
      silent = true;
      for (const link of links) hold(link);
    },
    /** Forwards again (after `silence`), or listens again on the same port (after `cut`). */
    async restore(): Promise<void> {
      if (silent) {
        silent = false;
        for (const link of links) forward(link);
      }
      if (!server) await listen();
    },
    stop(): Promise<void> {
      return this.cut();
    },
  };
}

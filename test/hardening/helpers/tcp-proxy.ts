import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a server (PostgreSQL) that a fault test can cut and restore:
 * cutting closes the listener and every connection, as a crashed or unplugged database would.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;

  async function listen(): Promise<void> {
    server = createServer((client) => {
      const upstream = createConnection(target);
      sockets.add(client).add(upstream);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        sockets.delete(client);
        sockets.delete(upstream);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      client.pipe(upstream).pipe(client);
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
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      await closed;
      server = undefined;
    },
    /** Listens again on the same port. */
    restore: listen,
    stop(): Promise<void> {
      return this.cut();
    },
  };
}

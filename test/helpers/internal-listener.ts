// A listener on 127.0.0.2, which is loopback but on no test's allow-list: anything that connects to it got past the
// address rules. The hostile-page tests aim pages at it and hold it to no connection.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface InternalListener {
  port: number;
  /** The remote address of every connection it was offered. */
  connections: string[];
  close(): Promise<void>;
}

export async function startInternalListener(): Promise<InternalListener> {
  const connections: string[] = [];
  const server = createServer((socket) => {
    connections.push(String(socket.remoteAddress));
    socket.destroy();
  });
  server.listen(0, '127.0.0.2');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

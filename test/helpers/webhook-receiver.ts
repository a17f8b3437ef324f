// A webhook receiver on loopback that checks every signature with the `standardwebhooks` package (the reference
// verifier of the Standard Webhooks specification) against the secrets it was given, records every request,
// and answers as the test says: a status, a redirect, or no answer at all (hang).
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { HANG_MS } from './wait-for.js';

export interface Received {
  n: number; // 1-based request count
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  json: { type: string; timestamp: string; data: Record<string, unknown> } | null;
  verifiedBy: number[]; // indexes of the secrets that verify it
  headers: IncomingMessage['headers'];
}

export type Answer = { status: number; location?: string } | 'hang';

export interface Receiver {
  url: string; // http://127.0.0.1:PORT/hooks
  origin: string;
  received: Received[];
  secrets: string[];
  answer: (r: Received) => Answer;
  waitFor(pred: (all: Received[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const sockets = new Set<Socket>();
  const receiver: Receiver = {
    url: '',
    origin: '',
    received: [],
    secrets: [],
    answer: () => ({ status: 204 }),
    async waitFor(pred, timeoutMs = HANG_MS) {
      const deadline = Date.now() + timeoutMs;
      while (!pred(receiver.received)) {
        if (Date.now() > deadline) throw new Error(`receiver: condition not met within ${timeoutMs} ms; got ${receiver.received.map((r) => `${r.n}:${r.json?.type}`).join(', ')}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const header = (name: string) => String(req.headers[name] ?? '');
      const verifiedBy = receiver.secrets.flatMap((secret, i) => {
        try {
          new Webhook(secret).verify(body, req.headers as Record<string, string>);
          return [i];
        } catch {
          return [];
        }
      });
      let json: Received['json'] = null;
      try {
        json = JSON.parse(body) as Received['json'];
      } catch {
        /* recorded as it came */
      }
      const r: Received = {
        n: receiver.received.length + 1,
        id: header('webhook-id'),
        timestamp: header('webhook-timestamp'),
        signature: header('webhook-signature'),
        body,
        json,
        verifiedBy,
        headers: req.headers,
      };
      receiver.received.push(r);
      const answer = receiver.answer(r);
      if (answer === 'hang') return; // never answers; the sender must cut it
      res.writeHead(answer.status, answer.location ? { location: answer.location } : {});
      res.end('ok');
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  receiver.origin = `http://127.0.0.1:${port}`;
  receiver.url = `${receiver.origin}/hooks`;
  return receiver;
}

// A MongoDB server as the driver sees it, on a loopback port: it speaks the wire protocol (OP_QUERY for the
// handshake, OP_MSG after it), says it is a standalone server, and answers every other command as the test
// decides, or never. For the MongoDB adapter's behaviours that need a server in a given state (taking no writes,
// silent) where no real MongoDB runs; the same behaviours run against a real one in the contract suite when
// MONGODB_URI is set.
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { BSON, type Document } from 'mongodb';

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;

/** The answer to one command; `'silent'` never answers (the connection stays open until the server closes). */
export type WireAnswer = Document | 'silent';

export interface MongoWireServer {
  uri: string;
  /** Every command received after the handshake, in order (hello polls and endSessions left out). */
  commands: Document[];
  close(): Promise<void>;
}

const HANDSHAKE = new Set(['hello', 'ismaster', 'isMaster']);

function helloReply(connectionId: number): Document {
  return {
    helloOk: true,
    ismaster: true,
    isWritablePrimary: true,
    maxBsonObjectSize: 16 * 1024 * 1024,
    maxMessageSizeBytes: 48_000_000,
    maxWriteBatchSize: 100_000,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    connectionId,
    minWireVersion: 0,
    maxWireVersion: 21, // MongoDB 7.0
    readOnly: false,
    ok: 1,
  };
}

function frame(requestId: number, responseTo: number, opCode: number, body: Buffer): Buffer {
  const header = Buffer.alloc(16);
  header.writeInt32LE(16 + body.length, 0);
  header.writeInt32LE(requestId, 4);
  header.writeInt32LE(responseTo, 8);
  header.writeInt32LE(opCode, 12);
  return Buffer.concat([header, body]);
}

/** The command document of an OP_QUERY or OP_MSG body (OP_MSG document sequences are not used by these commands). */
function commandOf(opCode: number, body: Buffer): Document {
  if (opCode === OP_QUERY) {
    const nameEnd = body.indexOf(0, 4);
    return BSON.deserialize(body.subarray(nameEnd + 1 + 8));
  }
  return BSON.deserialize(body.subarray(5)); // flagBits, then section kind 0
}

function reply(opCode: number, requestId: number, responseTo: number, doc: Document): Buffer {
  const bson = Buffer.from(BSON.serialize(doc));
  if (opCode === OP_QUERY) {
    const head = Buffer.alloc(20); // responseFlags, cursorID (8 bytes), startingFrom, numberReturned
    head.writeInt32LE(1, 16);
    return frame(requestId, responseTo, OP_REPLY, Buffer.concat([head, bson]));
  }
  return frame(requestId, responseTo, OP_MSG, Buffer.concat([Buffer.alloc(5), bson])); // flagBits 0, kind 0
}

/**
 * What an empty database answers: empty cursors for reads, nothing matched for writes, ok for the rest (index and
 * collection set-up), enough for MongoRepo.init() to run.
 */
export function emptyDatabase(command: Document): Document {
  const name = Object.keys(command)[0];
  if (name === 'find' || name === 'aggregate' || name === 'listCollections' || name === 'listIndexes') {
    const ns = `${String(command.$db)}.${name === 'listCollections' ? '$cmd.listCollections' : String(command[name])}`;
    return { cursor: { id: BSON.Long.fromNumber(0), ns, firstBatch: [] }, ok: 1 };
  }
  if (name === 'findAndModify') return { lastErrorObject: { n: 1, updatedExisting: false }, value: null, ok: 1 };
  return { n: 0, nModified: 0, ok: 1 };
}

export async function startMongoWire(answer: (command: Document) => WireAnswer = emptyDatabase): Promise<MongoWireServer> {
  const commands: Document[] = [];
  const sockets = new Set<Socket>();
  let nextId = 1;
  let connections = 0;
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined); // the driver may drop a connection at any time
    const connectionId = ++connections;
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
        const length = pending.readInt32LE(0);
        const message = pending.subarray(0, length);
        pending = pending.subarray(length);
        const requestId = message.readInt32LE(4);
        const opCode = message.readInt32LE(12);
        const command = commandOf(opCode, message.subarray(16));
        const name = Object.keys(command)[0];
        let out: WireAnswer;
        if (HANDSHAKE.has(name)) out = helloReply(connectionId);
        else if (name === 'endSessions') out = { ok: 1 };
        else {
          commands.push(command);
          out = answer(command);
        }
        if (out !== 'silent') socket.write(reply(opCode, nextId++, requestId, out));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    uri: `mongodb://127.0.0.1:${port}/?directConnection=true`,
    commands,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

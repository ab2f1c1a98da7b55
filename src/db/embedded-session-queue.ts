// The turns of the embedded database's connections (src/db/embedded-pg.ts serves PGlite).
//
// PGlite is ONE database session, however many sockets pglite-socket accepts. Its own queue
// (0.2.17) interleaves the connections message by message and only keeps a connection's turn
// inside an explicit transaction block: a Parse/Bind/Execute/Sync sequence of one connection can
// have another's Parse land between its Parse and its Bind (the Bind then binds the other's
// unnamed statement, or fails with "unnamed prepared statement does not exist"), and another's
// BEGIN can land between its Execute and its Sync (its autocommit write then joins, and is
// rolled back with, that transaction). This is reached as soon as messages of two connections
// wait together, e.g. while a third one holds a transaction. So berth replaces that queue with
// {@link SessionQueue}: one connection at a time owns the session, from its first message until
// PostgreSQL is ready for the next query outside a transaction block.

/** What {@link SessionQueue} needs of PGlite. */
export interface SessionDb {
  isInTransaction(): boolean;
  runExclusive<T>(fn: () => Promise<T>): Promise<T>;
  execProtocolRawStream(
    message: Uint8Array,
    opts: { onRawData: (data: Uint8Array) => void },
  ): Promise<void>;
}

/** pglite-socket 0.2.17's query queue as its socket handlers call it (its `QueryQueueManager`). */
export interface SocketQueryQueue {
  enqueue(
    handlerId: number,
    message: Uint8Array,
    onData: (data: Uint8Array) => void,
  ): Promise<number>;
  clearQueueForHandler(handlerId: number): void;
  clearTransactionIfNeeded(handlerId: number): Promise<void>;
  getQueueLength(): number;
}

interface Pending {
  readonly handlerId: number;
  /** undefined: abandon the session state a vanished owner left (see {@link SessionQueue}). */
  readonly message: Uint8Array | undefined;
  readonly onData: (data: Uint8Array) => void;
  readonly resolve: (bytes: number) => void;
  readonly reject: (err: Error) => void;
}

const SYNC = 0x53; // 'S'
const QUERY = 0x51; // 'Q'
const TERMINATE = 0x58; // 'X'

/** A frontend message: type byte, int32 length (itself included), body. */
function frontendMessage(type: string, body: Buffer): Uint8Array {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return new Uint8Array(Buffer.concat([head, body]));
}

// Bind of a statement that cannot exist: an error, which aborts the (implicit or explicit)
// transaction a half-sent Parse/Bind/Execute left open; Sync then ends it; Query ROLLBACK ends an
// explicit transaction block.
const ABORT_BATCH = [
  frontendMessage(
    'B',
    Buffer.from('\0berth embedded: abandoned by a closed connection\0\0\0\0\0\0\0'),
  ),
  frontendMessage('S', Buffer.alloc(0)),
];
const ROLLBACK = frontendMessage('Q', Buffer.from('ROLLBACK\0'));

/**
 * Serialises the connections of one PGlite session: a connection that sends a message owns the
 * session until a message that ends with ReadyForQuery (Sync, simple Query, the startup packet,
 * Terminate) leaves PostgreSQL outside a transaction block; meanwhile the other connections'
 * messages wait, in arrival order. So each connection sees its own unnamed statement and portal,
 * and each transaction (implicit, of one Parse..Sync, or BEGIN..COMMIT) runs alone, as with
 * PostgreSQL's row locks and isolation on a real server.
 * Consequence (as before, for BEGIN..COMMIT): a client that holds a transaction on one connection
 * and waits for a query on another one waits forever.
 * When the owner's socket closes mid-turn, its half-sent batch and open transaction are rolled
 * back (a real server aborts them with the backend) before anyone else runs.
 */
export class SessionQueue implements SocketQueryQueue {
  private queue: Pending[] = [];
  /** The connection whose turn it is (null: the session is idle, outside a transaction). */
  private owner: number | null = null;
  private running = false;

  constructor(private readonly db: SessionDb) {}

  enqueue(
    handlerId: number,
    message: Uint8Array,
    onData: (data: Uint8Array) => void,
  ): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.pump();
    });
  }

  getQueueLength(): number {
    return this.queue.length;
  }

  /** The handler's socket is gone: its waiting messages are dropped. */
  clearQueueForHandler(handlerId: number): void {
    const gone = new Error('Handler disconnected');
    this.queue = this.queue.filter((q) => {
      if (q.handlerId === handlerId && q.message) {
        q.reject(gone);
        return false;
      }
      return true;
    });
  }

  /** Called by pglite-socket once a handler's socket is gone: ends the turn it owned, if any. */
  clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) {
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      this.queue.unshift({
        handlerId,
        message: undefined,
        onData: () => {},
        resolve: () => resolve(),
        reject,
      });
      void this.pump();
    });
  }

  private async pump(): Promise<void> {
    if (this.running) {
      return;
    }
    this.running = true;
    try {
      for (;;) {
        const owner = this.owner;
        const i =
          owner === null
            ? this.queue.length > 0
              ? 0
              : -1
            : this.queue.findIndex((q) => q.handlerId === owner);
        if (i < 0) {
          // Idle, or the owner's next message has not arrived yet: nobody else may run.
          return;
        }
        const [q] = this.queue.splice(i, 1);
        this.owner = q.handlerId;
        try {
          if (q.message === undefined) {
            await this.abandonTurn();
            this.owner = null;
            q.resolve(0);
            continue;
          }
          let bytes = 0;
          const message = q.message;
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(message, {
              onRawData: (data) => {
                bytes += data.length;
                q.onData(data);
              },
            }),
          );
          if (endsTurn(message) && !this.db.isInTransaction()) {
            this.owner = null;
          }
          q.resolve(bytes);
        } catch (err) {
          // The handler fails and closes its socket; clearTransactionIfNeeded then ends the turn.
          q.reject(err as Error);
        }
      }
    } finally {
      this.running = false;
    }
  }

  private async abandonTurn(): Promise<void> {
    const discard = { onRawData: () => {} };
    await this.db.runExclusive(async () => {
      for (const m of ABORT_BATCH) {
        await this.db.execProtocolRawStream(m, discard);
      }
      if (this.db.isInTransaction()) {
        await this.db.execProtocolRawStream(ROLLBACK, discard);
      }
    });
  }
}

/** True for a message whose answer ends with ReadyForQuery (or that ends the connection). */
function endsTurn(message: Uint8Array): boolean {
  const type = message[0];
  // 0: the startup packet (an int32 length, no type byte, below 16 MiB).
  return type === SYNC || type === QUERY || type === TERMINATE || type === 0;
}

/**
 * Puts a {@link SessionQueue} in place of pglite-socket's own query queue (before `start()`: each
 * connection's handler takes the server's queue when it is accepted).
 * @throws when pglite-socket no longer has the queue this relies on (a version other than 0.2.17).
 */
export function installSessionQueue(server: object, db: SessionDb): void {
  const s = server as { queryQueue?: Partial<SocketQueryQueue> };
  const q = s.queryQueue;
  if (
    typeof q?.enqueue !== 'function' ||
    typeof q.clearQueueForHandler !== 'function' ||
    typeof q.clearTransactionIfNeeded !== 'function'
  ) {
    throw new Error(
      'embedded PostgreSQL: @electric-sql/pglite-socket has no queryQueue to replace (berth needs 0.2.17, see src/db/embedded-session-queue.ts)',
    );
  }
  s.queryQueue = new SessionQueue(db);
}

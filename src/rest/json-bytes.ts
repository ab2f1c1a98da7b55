// A JSON text written straight into bytes. Large answers (GET /allocation_candidates for 1,000
// hosts is ~500 KB) built as strings cost more to concatenate and then encode than to write:
// V8 keeps `a + b` as a tree of pieces, and flattening and UTF-8 encoding a tree of tens of
// thousands of small pieces is most of the cost of the answer. Names in Placement (uuids,
// resource classes, traits, group suffixes) are printable ASCII, so they are copied byte by
// byte; anything else goes through JSON.stringify and a UTF-8 encoder, so the output is always
// exactly what JSON.stringify would give.

/**
 * The buffer the next writer starts in, handed back by done(): one answer's worth of memory
 * reused answer after answer. A writer takes it, so two writers never share bytes.
 */
let scratch: Buffer = Buffer.allocUnsafe(1 << 16);
const EMPTY: Buffer = Buffer.alloc(0);
/** A scratch buffer larger than this is not kept for the next answer. */
const KEEP_BYTES = 16 << 20;

/** Writes one JSON text; `done()` returns it as a Buffer of its own. */
export class JsonBytes {
  private buf: Buffer;
  private pos = 0;

  constructor() {
    this.buf = scratch;
    scratch = EMPTY;
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) {
      return;
    }
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n, 1 << 16));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** Writes `text` as it is; `text` must be ASCII (the literal punctuation of the document). */
  raw(text: string): this {
    const n = text.length;
    this.room(n);
    const buf = this.buf;
    let pos = this.pos;
    for (let i = 0; i < n; i++) {
      buf[pos++] = text.charCodeAt(i);
    }
    this.pos = pos;
    return this;
  }

  /** Writes `s` as a JSON string (quoted and escaped). */
  str(s: string): this {
    const n = s.length;
    this.room(n + 2);
    const buf = this.buf;
    let pos = this.pos;
    buf[pos++] = 0x22;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) {
        return this.escaped(s);
      }
      buf[pos++] = c;
    }
    buf[pos++] = 0x22;
    this.pos = pos;
    return this;
  }

  /** The slow path of str(): escape with JSON.stringify, encode as UTF-8. */
  private escaped(s: string): this {
    const text = JSON.stringify(s);
    this.room(Buffer.byteLength(text));
    this.pos += this.buf.write(text, this.pos, "utf8");
    return this;
  }

  /** Writes a number as JSON.stringify does (non-finite numbers are null). */
  num(n: number): this {
    return this.raw(Number.isFinite(n) ? String(n) : 'null');
  }

  /** Writes bytes that are already JSON. */
  bytes(b: Uint8Array): this {
    this.room(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
    return this;
  }

  /** The text written, in a Buffer of its own; the writer must not be used after. */
  done(): Buffer {
    // allocUnsafe + copy: Buffer.from(view) would zero-fill the new memory first.
    const out = Buffer.allocUnsafe(this.pos);
    this.buf.copy(out, 0, 0, this.pos);
    if (this.buf.length <= KEEP_BYTES) {
      scratch = this.buf;
    }
    return out;
  }
}

// A JSON text written straight into bytes, for the large answers of REST and GraphQL (candidates
// for 1,000 hosts are ~500 KB). Built as strings, such answers cost more to concatenate and then
// encode than to write: V8 keeps `a + b` as a tree of pieces, and flattening and UTF-8 encoding
// a tree of tens of thousands of small pieces is most of the cost of the answer. Names in
// Placement (uuids, resource classes, traits, group suffixes) are printable ASCII, so they are
// copied byte by byte; anything else goes through JSON.stringify and a UTF-8 encoder, so the
// output is always exactly what JSON.stringify would give.

/**
 * The buffer every writer starts in: small answers are written there and copied out, so their
 * memory is reused answer after answer. A writer takes it, so two writers never share bytes.
 */
let scratch: Buffer = Buffer.allocUnsafe(1 << 16);
const EMPTY: Buffer = Buffer.alloc(0);
/**
 * Size of the last answer that outgrew the scratch buffer, plus a quarter: the next large answer
 * starts at that size instead of doubling its way up (each doubling copies what it has).
 */
let largeHint = 0;

/** Writes one JSON text; `done()` returns it as a Buffer of its own. */
export class JsonBytes {
  private buf: Buffer;
  private pos = 0;
  private readonly scratch: Buffer;

  constructor() {
    this.scratch = scratch;
    this.buf = scratch;
    scratch = EMPTY;
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) {
      return;
    }
    const size = Math.max(this.buf.length * 2, this.pos + n, 1 << 16, largeHint);
    const next = Buffer.allocUnsafe(size);
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
        return this.json(s); // the slow path: escape with JSON.stringify, encode as UTF-8
      }
      buf[pos++] = c;
    }
    buf[pos++] = 0x22;
    this.pos = pos;
    return this;
  }

  /** Writes a number as JSON.stringify does (non-finite numbers are null). */
  num(n: number): this {
    return this.raw(Number.isFinite(n) ? String(n) : 'null');
  }

  /** Writes any value as JSON.stringify does (the general, slower path). */
  json(v: unknown): this {
    const text = JSON.stringify(v) ?? 'null';
    this.room(Buffer.byteLength(text));
    this.pos += this.buf.write(text, this.pos, 'utf8');
    return this;
  }

  /** Writes bytes that are already JSON. */
  bytes(b: Uint8Array): this {
    this.room(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
    return this;
  }

  /** How many bytes are written so far (a mark for since()). */
  get length(): number {
    return this.pos;
  }

  /** A copy of the bytes written since `mark` (an earlier `length`). */
  since(mark: number): Buffer {
    const out = Buffer.allocUnsafe(this.pos - mark);
    this.buf.copy(out, 0, mark, this.pos);
    return out;
  }

  /** Drops what was written; the writer must not be used after. */
  discard(): void {
    scratch = this.scratch;
  }

  /**
   * The text written, in a Buffer of its own; the writer must not be used after. A large answer
   * is handed over in the memory it was written in (no copy).
   */
  done(): Buffer {
    scratch = this.scratch;
    if (this.buf !== this.scratch) {
      largeHint = Math.ceil(this.pos * 1.25);
      return this.buf.subarray(0, this.pos);
    }
    // allocUnsafe + copy: Buffer.from(view) would zero-fill the new memory first.
    const out = Buffer.allocUnsafe(this.pos);
    this.buf.copy(out, 0, 0, this.pos);
    return out;
  }
}

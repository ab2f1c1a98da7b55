// A data directory as one file: a POSIX tar (ustar) of its folders and regular files, compressed
// with brotli. The prebuilt embedded database (src/db/embedded-prebuilt.ts) is kept this way:
// PGlite's data directory is three near-identical catalogs (template0, template1, postgres) and a
// WAL segment, which brotli's 16 MiB window stores once (40 MB → about 1.5 MB; gzip's 32 KiB
// window gives 4.8 MB). Unpacking it takes a few tenths of a second, against seconds of initdb.
// The tar is deterministic (sorted entries, mtime 0, uid and gid 0), so the same folder packs to
// the same bytes.
import {
  chmodSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

const BLOCK = 512;
const NAME_MAX = 100;

/** One entry of a tar: a folder (no data) or a regular file. */
interface Entry {
  readonly name: string;
  readonly mode: number;
  readonly data: Buffer | undefined;
}

function octal(buf: Buffer, at: number, width: number, value: number): void {
  buf.write(`${value.toString(8).padStart(width - 1, '0')}\0`, at, width, 'latin1');
}

function header(e: Entry): Buffer {
  const h = Buffer.alloc(BLOCK);
  const name = e.data ? e.name : `${e.name}/`;
  if (Buffer.byteLength(name) > NAME_MAX) {
    throw new Error(`embedded archive: ${name} is longer than ${NAME_MAX} bytes`);
  }
  h.write(name, 0, NAME_MAX, 'utf8');
  octal(h, 100, 8, e.mode & 0o7777);
  octal(h, 108, 8, 0);
  octal(h, 116, 8, 0);
  octal(h, 124, 12, e.data?.length ?? 0);
  octal(h, 136, 12, 0);
  h.write(e.data ? '0' : '5', 156, 1, 'latin1');
  h.write('ustar\u000000', 257, 8, 'latin1');
  h.fill(0x20, 148, 156);
  let sum = 0;
  for (const b of h) {
    sum += b;
  }
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'latin1');
  return h;
}

/** The folders and regular files below `dir` (relative, '/'-separated), parents first, sorted. */
function walk(dir: string): Entry[] {
  const out: Entry[] = [];
  const visit = (rel: string) => {
    for (const name of readdirSync(path.join(dir, rel)).sort()) {
      const child = rel ? `${rel}/${name}` : name;
      const full = path.join(dir, child);
      const st = statSync(full);
      if (st.isDirectory()) {
        out.push({ name: child, mode: st.mode, data: undefined });
        visit(child);
      } else if (st.isFile()) {
        out.push({ name: child, mode: st.mode, data: readFileSync(full) });
      } else {
        throw new Error(`embedded archive: ${full} is neither a folder nor a regular file`);
      }
    }
  };
  visit('');
  return out;
}

/** The ustar bytes of everything below `dir` (without `dir` itself). */
export function tarDirectory(dir: string): Buffer {
  const parts: Buffer[] = [];
  for (const e of walk(dir)) {
    parts.push(header(e));
    if (e.data) {
      parts.push(e.data, Buffer.alloc((BLOCK - (e.data.length % BLOCK)) % BLOCK));
    }
  }
  parts.push(Buffer.alloc(2 * BLOCK));
  return Buffer.concat(parts);
}

/**
 * Packs everything below `dir` into an archive: tar, then brotli with its widest window at quality
 * 9 (about 1.5 s for a data directory; quality 11 saves another 12 % in 20 s).
 */
export function packDirectory(dir: string): Buffer {
  const tar = tarDirectory(dir);
  return brotliCompressSync(tar, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 9,
      [constants.BROTLI_PARAM_LGWIN]: constants.BROTLI_MAX_WINDOW_BITS,
      [constants.BROTLI_PARAM_SIZE_HINT]: tar.length,
    },
  });
}

function field(h: Buffer, at: number, width: number): string {
  const raw = h.subarray(at, at + width).toString('latin1');
  const nul = raw.indexOf('\0');
  return nul < 0 ? raw : raw.slice(0, nul);
}

/** The entries of ustar bytes, as {@link tarDirectory} writes them. */
export function readTar(tar: Buffer): Entry[] {
  const out: Entry[] = [];
  let at = 0;
  while (at + BLOCK <= tar.length) {
    const h = tar.subarray(at, at + BLOCK);
    if (h.every((b) => b === 0)) {
      return out;
    }
    const prefix = field(h, 345, 155);
    const name = (prefix ? `${prefix}/` : '') + field(h, 0, NAME_MAX);
    const mode = Number.parseInt(field(h, 100, 8).trim() || '0', 8);
    const size = Number.parseInt(field(h, 124, 12).trim() || '0', 8);
    const type = field(h, 156, 1) || '0';
    const clean = name.replace(/\/+$/, '');
    if (!clean || clean.startsWith('/') || clean.split('/').some((p) => p === '..' || p === '')) {
      throw new Error(`embedded archive: refusing the entry ${JSON.stringify(name)}`);
    }
    at += BLOCK;
    if (type === '5') {
      out.push({ name: clean, mode, data: undefined });
    } else if (type === '0') {
      if (at + size > tar.length) {
        throw new Error(`embedded archive: ${clean} is cut short`);
      }
      out.push({ name: clean, mode, data: tar.subarray(at, at + size) });
      at += Math.ceil(size / BLOCK) * BLOCK;
    } else {
      throw new Error(`embedded archive: ${clean} has the unsupported tar type ${type}`);
    }
  }
  throw new Error('embedded archive: no end-of-archive marker');
}

/**
 * Unpacks the archive `file` (made by {@link packDirectory}) into the folder `dest`, which must be
 * missing or empty: written beside it (`dest`.unpacking) and renamed into place, so an interrupted
 * unpack never leaves half a database behind. Modes are restored as packed.
 * @throws when the archive is damaged or `dest` cannot be written.
 */
export function unpackArchive(file: string, dest: string): void {
  const entries = readTar(brotliDecompressSync(readFileSync(file)));
  const partial = `${dest}.unpacking`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  try {
    for (const e of entries) {
      const target = path.join(partial, e.name);
      if (e.data) {
        writeFileSync(target, e.data);
        chmodSync(target, e.mode);
      } else {
        mkdirSync(target, { recursive: true });
      }
    }
    // Folders last, deepest first: a read-only folder is still filled first.
    for (const e of entries.filter((d) => !d.data).reverse()) {
      chmodSync(path.join(partial, e.name), e.mode);
    }
    rmSync(dest, { recursive: true, force: true });
    renameSync(partial, dest);
  } catch (err) {
    rmSync(partial, { recursive: true, force: true });
    throw err;
  }
}

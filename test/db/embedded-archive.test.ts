// The archive the prebuilt embedded database is kept in (src/db/embedded-archive.ts): a folder
// packed and unpacked is the same folder (files, empty files and folders, modes), the same folder
// always packs to the same bytes, and a damaged or hostile archive leaves nothing behind.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { packDirectory, readTar, tarDirectory, unpackArchive } from '../../src/db/embedded-archive';

/** path -> mode and content (undefined for a folder), below `dir`. */
function tree(dir: string): Record<string, { mode: number; data?: string }> {
  const out: Record<string, { mode: number; data?: string }> = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(path.join(dir, rel))) {
      const child = rel ? `${rel}/${name}` : name;
      const st = statSync(path.join(dir, child));
      if (st.isDirectory()) {
        out[child] = { mode: st.mode & 0o7777 };
        walk(child);
      } else {
        const data = readFileSync(path.join(dir, child)).toString('base64');
        out[child] = { mode: st.mode & 0o7777, data };
      }
    }
  };
  walk('');
  return out;
}

describe('embedded archive', () => {
  let work: string;
  let src: string;
  beforeEach(() => {
    work = mkdtempSync(path.join(tmpdir(), 'berth-archive-'));
    src = path.join(work, 'src');
    mkdirSync(path.join(src, 'base/5'), { recursive: true });
    mkdirSync(path.join(src, 'pg_tblspc'));
    writeFileSync(path.join(src, 'PG_VERSION'), '17\n');
    writeFileSync(path.join(src, 'base/5/1259'), Buffer.alloc(8192 * 3 + 17, 7));
    writeFileSync(path.join(src, 'base/5/empty'), '');
    chmodSync(path.join(src, 'PG_VERSION'), 0o600);
    chmodSync(path.join(src, 'base/5/1259'), 0o666);
    chmodSync(path.join(src, 'pg_tblspc'), 0o700);
  });
  afterEach(() => rmSync(work, { recursive: true, force: true }));

  it('unpacks into the folder it packed: files, empty files, empty folders and modes', () => {
    const file = path.join(work, 'a.tar.br');
    writeFileSync(file, packDirectory(src));
    unpackArchive(file, path.join(work, 'out'));
    expect(tree(path.join(work, 'out'))).toEqual(tree(src));
    expect(Object.keys(tree(src)).sort()).toEqual([
      'PG_VERSION',
      'base',
      'base/5',
      'base/5/1259',
      'base/5/empty',
      'pg_tblspc',
    ]);
    expect(existsSync(path.join(work, 'out.unpacking'))).toBe(false);
  });

  it('packs the same folder to the same bytes, whatever its timestamps', () => {
    const first = tarDirectory(src);
    utimesSync(path.join(src, 'PG_VERSION'), new Date(0), new Date(0));
    expect(tarDirectory(src).equals(first)).toBe(true);
  });

  it.each([
    { name: 'a cut brotli stream', bytes: () => packDirectory(src).subarray(0, -8) },
    { name: 'a cut tar', bytes: () => brotliCompressSync(tarDirectory(src).subarray(0, 2048)) },
  ])('leaves nothing behind when the archive is damaged: $name', ({ bytes }) => {
    const file = path.join(work, 'a.tar.br');
    writeFileSync(file, bytes());
    expect(() => unpackArchive(file, path.join(work, 'out'))).toThrow();
    expect(readdirSync(work).sort()).toEqual(['a.tar.br', 'src']);
  });

  it('refuses an entry outside the folder', () => {
    writeFileSync(path.join(work, 'src', 'x'), 'y');
    const tar = tarDirectory(src);
    const at = readTar(tar).findIndex((e) => e.name === 'x');
    expect(at).toBeGreaterThanOrEqual(0);
    // Rename the entry "x" to "../x" in its header (the reader does not trust names).
    let offset = 0;
    for (;;) {
      if (tar.subarray(offset, offset + 2).toString('latin1') === 'x\0') {
        break;
      }
      const size = Number.parseInt(tar.subarray(offset + 124, offset + 135).toString('latin1'), 8);
      offset += 512 + Math.ceil(size / 512) * 512;
    }
    tar.write('../x\0', offset, 'latin1');
    const file = path.join(work, 'evil.tar.br');
    writeFileSync(file, brotliCompressSync(tar));
    expect(() => unpackArchive(file, path.join(work, 'out'))).toThrow(/refusing the entry/);
    expect(existsSync(path.join(work, 'x'))).toBe(false);
    expect(existsSync(path.join(work, 'out'))).toBe(false);
  });
});

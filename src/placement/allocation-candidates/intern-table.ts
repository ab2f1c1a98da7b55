// String <-> small-integer interning for resource classes, traits and aggregates
// (upstream: placement/attribute_cache.py, which maps names to internal ids).

/** Assigns dense integer ids (0, 1, 2, ...) to strings; ids are never reused. */
export class InternTable {
  private readonly ids = new Map<string, number>();
  private readonly names: string[] = [];

  /** Returns the id of `name`, creating it if needed. */
  intern(name: string): number {
    const known = this.ids.get(name);
    if (known !== undefined) {
      return known;
    }
    const id = this.names.length;
    this.ids.set(name, id);
    this.names.push(name);
    return id;
  }

  /** Returns the id of `name`, or -1 when it was never interned. */
  lookup(name: string): number {
    return this.ids.get(name) ?? -1;
  }

  /** Returns the name of an id. */
  name(id: number): string {
    return this.names[id]!;
  }

  /** Number of interned strings. */
  get size(): number {
    return this.names.length;
  }
}

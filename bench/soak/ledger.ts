// What the clients know about every consumer they wrote: the set of database states consistent
// with the answers they got (one state once acknowledged; several while an answer was lost).

/** Allocations of one consumer: provider uuid -> resource class -> amount. */
export type Holding = Readonly<Record<string, Readonly<Record<string, number>>>>;

/**
 * Provider key of a holding whose provider is unknown (a `schedule` whose answer was lost: it
 * may have claimed the requested amounts on any one host).
 */
export const ANY_PROVIDER = '*';

/**
 * One write a client sent, for the audit check: the audit operation it must be recorded as, the
 * request id its event must carry (the x-request-id sent on GraphQL, the x-openstack-request-id
 * answered on REST; unknown for a REST write whose answer was lost), what the answer proves
 * (committed: exactly one event; none: no event; doubt: zero or one), and whether the write
 * leaves the consumer holding allocations.
 */
export interface WriteRecord {
  readonly operation: string;
  readonly requestId?: string;
  readonly outcome: 'committed' | 'none' | 'doubt';
  readonly holds: boolean;
}

/** Client-side knowledge of one consumer. */
export interface ConsumerEntry {
  readonly uuid: string;
  /** Database states the answers allow; null = no allocations (consumer absent). */
  possible: (Holding | null)[];
  /** True once any write to it went unanswered (retryable, network error, timeout). */
  everInDoubt: boolean;
  /** Acknowledged writes (claims, resizes) to this consumer. */
  ackWrites: number;
  /** Generation from the last acknowledged GraphQL write, while no later write is in doubt. */
  generation?: number;
  /** How it was created (for the report and for choosing how to write it next). */
  readonly via: 'schedule' | 'setAllocations' | 'rest';
  /** Every write sent to it, in order (the audit check). */
  readonly writes: WriteRecord[];
}

/** Canonical string of a holding (for comparisons). */
export function holdingKey(h: Holding | null): string {
  if (!h) {
    return '-';
  }
  return Object.keys(h)
    .sort()
    .map((rp) =>
      Object.keys(h[rp]!)
        .sort()
        .map((rc) => `${rp}/${rc}=${h[rp]![rc]}`)
        .join(','),
    )
    .join(';');
}

/** The ledger of every consumer the clients ever wrote. */
export class Ledger {
  readonly consumers = new Map<string, ConsumerEntry>();

  /** A new consumer before its first write (absent). */
  create(uuid: string, via: ConsumerEntry['via']): ConsumerEntry {
    const e: ConsumerEntry = {
      uuid,
      possible: [null],
      everInDoubt: false,
      ackWrites: 0,
      via,
      writes: [],
    };
    this.consumers.set(uuid, e);
    return e;
  }

  /** The write of `h` was acknowledged: that is now the only possible state. */
  acknowledged(e: ConsumerEntry, h: Holding | null, generation?: number): void {
    e.possible = [h];
    if (h) {
      e.ackWrites++;
    }
    e.generation = generation;
  }

  /** The write of `h` may or may not have happened. */
  inDoubt(e: ConsumerEntry, h: Holding | null): void {
    e.everInDoubt = true;
    if (!e.possible.some((p) => holdingKey(p) === holdingKey(h))) {
      e.possible.push(h);
    }
    e.generation = undefined;
  }

  /** Records a write sent to `e` (see {@link WriteRecord}). */
  sent(e: ConsumerEntry, w: WriteRecord): void {
    e.writes.push(w);
  }

  /** True when the consumer may hold allocations. */
  mayHold(e: ConsumerEntry): boolean {
    return e.possible.some((p) => p !== null);
  }

  /** True when the database holding `h` is one of the possible states of `e`. */
  allows(e: ConsumerEntry, h: Holding | null): boolean {
    return e.possible.some((p) => matches(p, h));
  }

  /** The acknowledged holding when it is known exactly, else undefined. */
  known(e: ConsumerEntry): Holding | null | undefined {
    return e.possible.length === 1 ? e.possible[0] : undefined;
  }
}

/** True when actual holding `h` matches expected `p` (whose provider may be ANY_PROVIDER). */
function matches(p: Holding | null, h: Holding | null): boolean {
  if (!p || !h) {
    return p === h;
  }
  const any = p[ANY_PROVIDER];
  if (!any) {
    return holdingKey(p) === holdingKey(h);
  }
  const rps = Object.keys(h);
  return rps.length === 1 && holdingKey({ x: any }) === holdingKey({ x: h[rps[0]!]! });
}

// The server group's hard policy across the proposals of one dry run (explainPlacement with
// several consumers): later consumers see where the earlier ones were proposed, as `schedule`'s
// claims see the earlier claims (src/placement/server-group-guard.ts).
import type { ServerGroupView } from '../plugin-api';

/** Proposed members per host, checked against the group's policy. */
export class GroupPlan {
  private readonly proposed = new Map<string, number>();

  constructor(private readonly group: ServerGroupView | undefined) {}

  /** Whether one more member may be proposed on `host`. */
  allows(host: string): boolean {
    const g = this.group;
    if (g?.policy === 'anti-affinity') {
      return (g.hosts[host] ?? 0) + (this.proposed.get(host) ?? 0) < g.maxServerPerHost;
    }
    if (g?.policy === 'affinity' && this.proposed.size > 0) {
      return this.proposed.has(host);
    }
    return true;
  }

  /** Records a proposal on `host`. */
  place(host: string): void {
    this.proposed.set(host, (this.proposed.get(host) ?? 0) + 1);
  }
}

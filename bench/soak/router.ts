// Spreads claimers over the replicas the way a load balancer would: each claimer has a home
// replica; a refused connection takes that replica out of rotation for a moment.
import type { ReplicaClient, Reply } from './client';

/** One berth replica as the claimers see it. */
export interface Target {
  readonly name: string;
  client: ReplicaClient;
  /** Date.now() until which the replica is skipped. */
  downUntil: number;
  /** When the harness sent it SIGTERM (0 = never). */
  sigtermAt: number;
}

/** Graceful-shutdown evidence gathered from replies. */
export interface ShutdownEvidence {
  /** Requests sent before SIGTERM that got no answer (must be 0). */
  inFlightBroken: number;
  /** Requests sent before SIGTERM and answered after it (the in-flight work that completed). */
  inFlightCompleted: number;
  /** Requests sent after SIGTERM and refused or cut (new requests: allowed, rerouted). */
  newRequestsRefused: number;
  /** Requests sent after SIGTERM to the stopping replica that still got an answer. */
  answeredWhileStopping: number;
}

/** Chooses a replica per request. */
export class Router {
  readonly shutdown: ShutdownEvidence = {
    inFlightBroken: 0,
    inFlightCompleted: 0,
    newRequestsRefused: 0,
    answeredWhileStopping: 0,
  };

  constructor(readonly targets: Target[]) {}

  /** The home replica of claimer `i`, or the next one up. */
  pick(i: number): Target {
    const now = Date.now();
    for (let k = 0; k < this.targets.length; k++) {
      const t = this.targets[(i + k) % this.targets.length]!;
      if (t.downUntil <= now) {
        return t;
      }
    }
    return this.targets[i % this.targets.length]!;
  }

  /** Notes a reply from `t`; a connection failure takes it out of rotation for 500 ms. */
  observe(t: Target, r: Reply): void {
    const broken = r.outcome === 'refused' || r.outcome === 'network';
    if (t.sigtermAt > 0) {
      if (broken && r.sentAt < t.sigtermAt) {
        this.shutdown.inFlightBroken++;
      } else if (broken) {
        this.shutdown.newRequestsRefused++;
      } else if (r.sentAt >= t.sigtermAt) {
        this.shutdown.answeredWhileStopping++;
      } else if (r.sentAt + r.ms >= t.sigtermAt) {
        this.shutdown.inFlightCompleted++;
      }
    }
    if (broken) {
      t.downUntil = Date.now() + 500;
    }
  }
}

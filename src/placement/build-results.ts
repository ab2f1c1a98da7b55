// Build results a compute service reports for its host, kept as Nova keeps them: a count of
// consecutive failed builds, one more per failure, back to 0 on a success (upstream:
// nova/compute/manager.py _build_failed / _build_succeeded, nova/compute/stats.py build_failed /
// build_succeeded; the scheduler reads HostState.failed_builds, nova/scheduler/host_manager.py,
// for BuildFailureWeigher). berth extension: Placement keeps no such count. The host is its root
// provider; the count lives in build_failures (a row while it is above 0) and reaches scheduler
// plugins as HostView.failedBuilds through the capacity index: each write records the root
// provider as changed, so every replica refreshes that provider and its cached host views.
import type { DataSource } from 'typeorm';
import { rowsOf } from '../db/rows';
import { noteAuditDetails } from './audit';
import { type ChangeBus, writeTransaction } from './change-bus';
import { BadRequestError, ErrorCode, NotFoundError } from './errors';
import { normalizeUuidOrThrow } from './uuid';

/** A host's failed-build count after a report. */
export interface BuildResultRecord {
  /** The host's root provider uuid. */
  readonly providerUuid: string;
  /** Consecutive failed builds (0 after a success). */
  readonly failedBuilds: number;
}

interface HostRow {
  readonly id: number;
  readonly uuid: string;
  readonly parent_provider_id: number | null;
  readonly root_uuid: string;
  readonly failed_builds: number | null;
}

const HOST_SQL = `SELECT rp.id, rp.uuid, rp.parent_provider_id, root.uuid AS root_uuid,
         bf.failed_builds
       FROM resource_providers rp
       JOIN resource_providers root ON root.id = rp.root_provider_id
       LEFT JOIN build_failures bf ON bf.resource_provider_id = rp.id
       WHERE rp.uuid = $1`;

/** Records build results per host (GraphQL reportBuildFailure / reportBuildSuccess). */
export class BuildResultService {
  constructor(
    private readonly ds: DataSource,
    private readonly bus: ChangeBus,
  ) {}

  /**
   * The host (root provider) `uuid` names, with its current count.
   * @throws BadRequestError for a malformed uuid or a provider that is not a root;
   *   NotFoundError for an unknown provider.
   */
  private async host(uuid: string): Promise<HostRow> {
    const normalized = normalizeUuidOrThrow(uuid, 'resource provider uuid');
    const rows: HostRow[] = await this.ds.query(HOST_SQL, [normalized]);
    const row = rows[0];
    if (row === undefined) {
      throw new NotFoundError(
        `No resource provider with uuid ${normalized} found`,
        ErrorCode.RESOURCE_PROVIDER_NOT_FOUND,
      );
    }
    if (row.parent_provider_id !== null) {
      throw new BadRequestError(
        `Resource provider ${normalized} is not a host: build results are reported for a root provider (its root is ${row.root_uuid}).`,
        ErrorCode.INVALID_INPUT,
      );
    }
    return row;
  }

  /** The host's count as the database holds it. @throws as {@link host}. */
  async failedBuilds(uuid: string): Promise<BuildResultRecord> {
    const row = await this.host(uuid);
    return { providerUuid: row.uuid, failedBuilds: row.failed_builds ?? 0 };
  }

  /**
   * A build failed on the host: its count goes up by one (Nova `Stats.build_failed`).
   * @throws BadRequestError, NotFoundError (see {@link host}); ConflictError when the provider
   *   is deleted meanwhile.
   */
  async reportFailure(uuid: string): Promise<BuildResultRecord> {
    const host = await this.host(uuid);
    return writeTransaction(this.ds, this.bus, async (em, changes) => {
      const rows = rowsOf<{ failed_builds: number }>(
        await em.query(
          `INSERT INTO build_failures (resource_provider_id, failed_builds) VALUES ($1, 1)
         ON CONFLICT (resource_provider_id) DO UPDATE
           SET failed_builds = build_failures.failed_builds + 1, updated_at = now()
         RETURNING failed_builds`,
          [host.id],
        ),
      );
      const failedBuilds = rows[0]!.failed_builds;
      changes.providers([host.id]);
      noteAuditDetails({
        failed_builds: { provider: host.uuid, old: failedBuilds - 1, new: failedBuilds },
      });
      return { providerUuid: host.uuid, failedBuilds };
    });
  }

  /**
   * A build succeeded on the host: its count goes back to 0 (Nova `Stats.build_succeeded`). A
   * host already at 0 is left alone: nothing is written, so no audit event and no change (nova-
   * compute reports every successful build).
   * @throws BadRequestError, NotFoundError (see {@link host}).
   */
  async reportSuccess(uuid: string): Promise<BuildResultRecord> {
    const host = await this.host(uuid);
    if (host.failed_builds === null) {
      return { providerUuid: host.uuid, failedBuilds: 0 };
    }
    return writeTransaction(this.ds, this.bus, async (em, changes) => {
      const rows = rowsOf<{ failed_builds: number }>(
        await em.query(
          'DELETE FROM build_failures WHERE resource_provider_id = $1 RETURNING failed_builds',
          [host.id],
        ),
      );
      if (rows.length > 0) {
        changes.providers([host.id]);
        noteAuditDetails({
          failed_builds: { provider: host.uuid, old: rows[0]!.failed_builds, new: 0 },
        });
      }
      return { providerUuid: host.uuid, failedBuilds: 0 };
    });
  }
}

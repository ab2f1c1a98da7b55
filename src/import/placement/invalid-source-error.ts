// The refusal of a whole Placement database by `berth import placement` (without --skip-invalid):
// rows that break the rules the API enforces, each named, and nothing written.
import { BadRequestError, ErrorCode } from '../../placement/errors';
import { findingLines, type SourceFinding } from './source-findings';

/** The source holds rows the API would refuse (berth.import.invalid_source); nothing was written. */
export class PlacementImportInvalidError extends BadRequestError {
  /** The first line of the message: what happened and what to do (the rows follow it). */
  readonly headline: string;

  /**
   * @param findings every row that breaks a rule (the message lists the first 50).
   * @param dependents how many providers and consumers hold them or depend on them.
   */
  constructor(
    readonly findings: readonly SourceFinding[],
    readonly dependents: number,
  ) {
    const headline =
      `the Placement database holds ${findings.length} row(s) that berth's API would refuse; nothing was written. ` +
      'Fix them in the source, or re-run with --skip-invalid (GraphQL: skipInvalid: true) to import the rest ' +
      `without them${dependents > 0 ? ` and the ${dependents} provider(s) and consumer(s) that hold or depend on them` : ''}:`;
    super([headline, ...findingLines(findings)].join('\n'), ErrorCode.IMPORT_INVALID_SOURCE);
    this.headline = headline;
  }

  /** The message as lines (headline, then one per listed row), for a terminal to escape one by one. */
  lines(): string[] {
    return [this.headline, ...findingLines(this.findings)];
  }
}

// A TypeORM logger that records every SQL statement, so tests can count database round trips.
import type { Logger as TypeOrmLogger } from 'typeorm';

/** Records queries while `recording`; pass it to createTestDb({ logger }) or createTestApp. */
export class QueryCounter implements TypeOrmLogger {
  readonly queries: string[] = [];
  private recording = false;

  /** Runs `fn` and returns its result with the statements it issued. */
  async count<T>(fn: () => Promise<T>): Promise<{ result: T; queries: string[] }> {
    this.queries.length = 0;
    this.recording = true;
    try {
      const result = await fn();
      return { result, queries: [...this.queries] };
    } finally {
      this.recording = false;
    }
  }

  logQuery(query: string): void {
    if (this.recording) {
      this.queries.push(query.replace(/\s+/g, ' ').trim());
    }
  }

  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}

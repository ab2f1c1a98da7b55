// The one TypeORM DataSource of the application (also what the typeorm CLI loads with -d).
// Its URL comes from DATABASE_URL; on the embedded default the server points it at PGlite with
// setOptions() before initialising it.
import 'reflect-metadata';
import { createDataSource } from './src/db/data-source';

const dataSource = createDataSource({
  url: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  poolSize: Number(process.env.BERTH_DB_POOL_SIZE ?? 10),
});

export default dataSource;

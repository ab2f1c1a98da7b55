// Initial berth schema: everything Placement 1.39 holds, plus Nova host-aggregate metadata.
// Hand-written SQL, unqualified names (schema-per-worker tests set search_path). Mirrors
// placement/db/sqlalchemy/models.py; index choices are commented with the query they serve.
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1763800000000 implements MigrationInterface {
  name = 'InitialSchema1763800000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE resource_classes (
        id SERIAL NOT NULL,
        name character varying(255) NOT NULL,
        created_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        updated_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_resource_classes" PRIMARY KEY (id),
        CONSTRAINT "UQ_resource_classes_name" UNIQUE (name)
      )`);
    await q.query(`
      CREATE TABLE traits (
        id SERIAL NOT NULL,
        name character varying(255) NOT NULL,
        created_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        updated_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_traits" PRIMARY KEY (id),
        CONSTRAINT "UQ_traits_name" UNIQUE (name)
      )`);
    await q.query(`
      CREATE TABLE projects (
        id SERIAL NOT NULL,
        external_id character varying(255) NOT NULL,
        created_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        updated_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_projects" PRIMARY KEY (id),
        CONSTRAINT "UQ_projects_external_id" UNIQUE (external_id)
      )`);
    await q.query(`
      CREATE TABLE users (
        id SERIAL NOT NULL,
        external_id character varying(255) NOT NULL,
        created_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        updated_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_users" PRIMARY KEY (id),
        CONSTRAINT "UQ_users_external_id" UNIQUE (external_id)
      )`);
    await q.query(`
      CREATE TABLE consumer_types (
        id SERIAL NOT NULL,
        name character varying(255) NOT NULL,
        created_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        updated_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_consumer_types" PRIMARY KEY (id),
        CONSTRAINT "UQ_consumer_types_name" UNIQUE (name)
      )`);
    await q.query(`
      CREATE TABLE resource_providers (
        id SERIAL NOT NULL,
        uuid uuid NOT NULL,
        name character varying(200) NOT NULL,
        generation integer NOT NULL DEFAULT 0,
        root_provider_id integer NOT NULL,
        parent_provider_id integer,
        created_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        updated_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_resource_providers" PRIMARY KEY (id),
        CONSTRAINT "UQ_resource_providers_uuid" UNIQUE (uuid),
        CONSTRAINT "UQ_resource_providers_name" UNIQUE (name),
        CONSTRAINT "FK_resource_providers_root" FOREIGN KEY (root_provider_id)
          REFERENCES resource_providers(id) ON DELETE NO ACTION ON UPDATE NO ACTION,
        CONSTRAINT "FK_resource_providers_parent" FOREIGN KEY (parent_provider_id)
          REFERENCES resource_providers(id) ON DELETE NO ACTION ON UPDATE NO ACTION
      )`);
    // Tree walks: all providers of a tree (in_tree, provider summaries, re-rooting on re-parent).
    await q.query(
      `CREATE INDEX "IDX_resource_providers_root" ON resource_providers (root_provider_id)`,
    );
    // Children of a provider (delete refusal "cannot_delete_parent", children field, descendant check).
    await q.query(
      `CREATE INDEX "IDX_resource_providers_parent" ON resource_providers (parent_provider_id)`,
    );
    await q.query(`
      CREATE TABLE inventories (
        id SERIAL NOT NULL,
        resource_provider_id integer NOT NULL,
        resource_class_id integer NOT NULL,
        total integer NOT NULL,
        reserved integer NOT NULL DEFAULT 0,
        min_unit integer NOT NULL DEFAULT 1,
        max_unit integer NOT NULL,
        step_size integer NOT NULL DEFAULT 1,
        allocation_ratio double precision NOT NULL DEFAULT 1,
        created_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        updated_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_inventories" PRIMARY KEY (id),
        CONSTRAINT "UQ_inventories_provider_class" UNIQUE (resource_provider_id, resource_class_id),
        CONSTRAINT "FK_inventories_provider" FOREIGN KEY (resource_provider_id)
          REFERENCES resource_providers(id) ON DELETE CASCADE ON UPDATE NO ACTION,
        CONSTRAINT "FK_inventories_class" FOREIGN KEY (resource_class_id)
          REFERENCES resource_classes(id) ON DELETE NO ACTION ON UPDATE NO ACTION
      )`);
    // Providers having a class (GET /resource_providers?resources=, class-in-use check on delete);
    // the unique (provider, class) constraint above serves per-provider lookups.
    await q.query(
      `CREATE INDEX "IDX_inventories_class_provider" ON inventories (resource_class_id, resource_provider_id)`,
    );
    await q.query(`
      CREATE TABLE consumers (
        id SERIAL NOT NULL,
        uuid uuid NOT NULL,
        project_id integer NOT NULL,
        user_id integer NOT NULL,
        consumer_type_id integer,
        generation integer NOT NULL DEFAULT 0,
        created_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        updated_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_consumers" PRIMARY KEY (id),
        CONSTRAINT "UQ_consumers_uuid" UNIQUE (uuid),
        CONSTRAINT "FK_consumers_project" FOREIGN KEY (project_id)
          REFERENCES projects(id) ON DELETE NO ACTION ON UPDATE NO ACTION,
        CONSTRAINT "FK_consumers_user" FOREIGN KEY (user_id)
          REFERENCES users(id) ON DELETE NO ACTION ON UPDATE NO ACTION,
        CONSTRAINT "FK_consumers_type" FOREIGN KEY (consumer_type_id)
          REFERENCES consumer_types(id) ON DELETE NO ACTION ON UPDATE NO ACTION
      )`);
    // Quota counting: usages per project (and user) (GET /usages, seed 004).
    await q.query(`CREATE INDEX "IDX_consumers_project_user" ON consumers (project_id, user_id)`);
    await q.query(`
      CREATE TABLE allocations (
        id SERIAL NOT NULL,
        resource_provider_id integer NOT NULL,
        consumer_id integer NOT NULL,
        resource_class_id integer NOT NULL,
        used integer NOT NULL,
        created_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        updated_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_allocations" PRIMARY KEY (id),
        CONSTRAINT "FK_allocations_provider" FOREIGN KEY (resource_provider_id)
          REFERENCES resource_providers(id) ON DELETE NO ACTION ON UPDATE NO ACTION,
        CONSTRAINT "FK_allocations_consumer" FOREIGN KEY (consumer_id)
          REFERENCES consumers(id) ON DELETE CASCADE ON UPDATE NO ACTION,
        CONSTRAINT "FK_allocations_class" FOREIGN KEY (resource_class_id)
          REFERENCES resource_classes(id) ON DELETE NO ACTION ON UPDATE NO ACTION
      )`);
    // Usage per provider and class (capacity checks in claims, provider usages, summaries).
    await q.query(
      `CREATE INDEX "IDX_allocations_provider_class" ON allocations (resource_provider_id, resource_class_id)`,
    );
    // Class in use anywhere (delete resource class) and per-class usage scans for the candidate index.
    await q.query(
      `CREATE INDEX "IDX_allocations_class_provider" ON allocations (resource_class_id, resource_provider_id)`,
    );
    // A consumer's allocations (replace-as-a-whole writes, consumer.allocations field, usages by project).
    await q.query(`CREATE INDEX "IDX_allocations_consumer" ON allocations (consumer_id)`);
    await q.query(`
      CREATE TABLE placement_aggregates (
        id SERIAL NOT NULL,
        uuid uuid NOT NULL,
        name character varying(255),
        created_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        updated_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_placement_aggregates" PRIMARY KEY (id),
        CONSTRAINT "UQ_placement_aggregates_uuid" UNIQUE (uuid)
      )`);
    await q.query(`
      CREATE TABLE resource_provider_aggregates (
        resource_provider_id integer NOT NULL,
        aggregate_id integer NOT NULL,
        CONSTRAINT "PK_resource_provider_aggregates" PRIMARY KEY (resource_provider_id, aggregate_id),
        CONSTRAINT "FK_rpa_provider" FOREIGN KEY (resource_provider_id)
          REFERENCES resource_providers(id) ON DELETE CASCADE ON UPDATE NO ACTION,
        CONSTRAINT "FK_rpa_aggregate" FOREIGN KEY (aggregate_id)
          REFERENCES placement_aggregates(id) ON DELETE CASCADE ON UPDATE NO ACTION
      )`);
    // Providers of an aggregate (member_of, sharing providers, aggregate.providers); the PK serves
    // the other direction (a provider's aggregates).
    await q.query(
      `CREATE INDEX "IDX_rpa_aggregate_provider" ON resource_provider_aggregates (aggregate_id, resource_provider_id)`,
    );
    await q.query(`
      CREATE TABLE aggregate_metadata (
        aggregate_id integer NOT NULL,
        key character varying(255) NOT NULL,
        value text NOT NULL,
        CONSTRAINT "PK_aggregate_metadata" PRIMARY KEY (aggregate_id, key),
        CONSTRAINT "FK_aggregate_metadata_aggregate" FOREIGN KEY (aggregate_id)
          REFERENCES placement_aggregates(id) ON DELETE CASCADE ON UPDATE NO ACTION
      )`);
    await q.query(`
      CREATE TABLE resource_provider_traits (
        resource_provider_id integer NOT NULL,
        trait_id integer NOT NULL,
        CONSTRAINT "PK_resource_provider_traits" PRIMARY KEY (resource_provider_id, trait_id),
        CONSTRAINT "FK_rpt_provider" FOREIGN KEY (resource_provider_id)
          REFERENCES resource_providers(id) ON DELETE CASCADE ON UPDATE NO ACTION,
        CONSTRAINT "FK_rpt_trait" FOREIGN KEY (trait_id)
          REFERENCES traits(id) ON DELETE NO ACTION ON UPDATE NO ACTION
      )`);
    // Providers having a trait (required/forbidden traits, trait in-use check, traits?associated=).
    await q.query(
      `CREATE INDEX "IDX_rpt_trait_provider" ON resource_provider_traits (trait_id, resource_provider_id)`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'resource_provider_traits',
      'aggregate_metadata',
      'resource_provider_aggregates',
      'placement_aggregates',
      'allocations',
      'consumers',
      'inventories',
      'resource_providers',
      'consumer_types',
      'users',
      'projects',
      'traits',
      'resource_classes',
    ]) {
      await q.query(`DROP TABLE ${table}`);
    }
  }
}

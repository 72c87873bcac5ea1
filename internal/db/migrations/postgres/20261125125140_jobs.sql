-- Create "jobs" table
CREATE TABLE "jobs" ("id" character varying NOT NULL, "river_id" bigint NOT NULL, "kind" character varying NOT NULL, "organization_id" character varying NOT NULL DEFAULT '', "space_id" character varying NOT NULL DEFAULT '', "subject" character varying NOT NULL DEFAULT '', "created_by" character varying NOT NULL DEFAULT '', "progress" double precision NOT NULL DEFAULT 0, "step" character varying NOT NULL DEFAULT '', "cancel_requested" boolean NOT NULL DEFAULT false, "outcome" character varying NOT NULL DEFAULT '', "last_error" character varying NOT NULL DEFAULT '', "finished_at" timestamptz NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- Create index "job_organization_id_created_at" to table: "jobs"
CREATE INDEX "job_organization_id_created_at" ON "jobs" ("organization_id", "created_at");
-- Create index "job_subject_created_at" to table: "jobs"
CREATE INDEX "job_subject_created_at" ON "jobs" ("subject", "created_at");
-- Create index "jobs_river_id_key" to table: "jobs"
CREATE UNIQUE INDEX "jobs_river_id_key" ON "jobs" ("river_id");
-- Drop "job_leases" table: periodic jobs are the job queue's now
DROP TABLE "job_leases";

-- Create "jobs" table
CREATE TABLE `jobs` (`id` text NOT NULL, `river_id` integer NOT NULL, `kind` text NOT NULL, `organization_id` text NOT NULL DEFAULT (''), `space_id` text NOT NULL DEFAULT (''), `subject` text NOT NULL DEFAULT (''), `created_by` text NOT NULL DEFAULT (''), `progress` real NOT NULL DEFAULT (0), `step` text NOT NULL DEFAULT (''), `cancel_requested` bool NOT NULL DEFAULT (false), `outcome` text NOT NULL DEFAULT (''), `last_error` text NOT NULL DEFAULT (''), `finished_at` datetime NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, PRIMARY KEY (`id`));
-- Create index "jobs_river_id_key" to table: "jobs"
CREATE UNIQUE INDEX `jobs_river_id_key` ON `jobs` (`river_id`);
-- Create index "job_subject_created_at" to table: "jobs"
CREATE INDEX `job_subject_created_at` ON `jobs` (`subject`, `created_at`);
-- Create index "job_organization_id_created_at" to table: "jobs"
CREATE INDEX `job_organization_id_created_at` ON `jobs` (`organization_id`, `created_at`);
-- Drop "job_leases" table: periodic jobs are the job queue's now
DROP TABLE `job_leases`;

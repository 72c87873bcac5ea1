-- Modify "organizations" table
ALTER TABLE "organizations" ADD COLUMN "use_case" character varying NULL, ADD COLUMN "community_type" character varying NULL, ADD COLUMN "blocked_source" character varying NULL, ADD COLUMN "blocked_reason" character varying NULL;

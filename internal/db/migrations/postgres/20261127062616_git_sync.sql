-- Modify "file_versions" table
ALTER TABLE "file_versions" ADD COLUMN "git" jsonb NULL;
-- Modify "page_versions" table
ALTER TABLE "page_versions" ADD COLUMN "git" jsonb NULL;
-- Modify "revisions" table
ALTER TABLE "revisions" ADD COLUMN "git" jsonb NULL;
-- Modify "spaces" table
ALTER TABLE "spaces" ADD COLUMN "git_sync" jsonb NULL;

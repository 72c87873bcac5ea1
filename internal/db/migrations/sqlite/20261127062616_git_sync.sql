-- Add column "git" to table: "file_versions"
ALTER TABLE `file_versions` ADD COLUMN `git` json NULL;
-- Add column "git" to table: "page_versions"
ALTER TABLE `page_versions` ADD COLUMN `git` json NULL;
-- Add column "git" to table: "revisions"
ALTER TABLE `revisions` ADD COLUMN `git` json NULL;
-- Add column "git_sync" to table: "spaces"
ALTER TABLE `spaces` ADD COLUMN `git_sync` json NULL;

-- Add column "use_case" to table: "organizations"
ALTER TABLE `organizations` ADD COLUMN `use_case` text NULL;
-- Add column "community_type" to table: "organizations"
ALTER TABLE `organizations` ADD COLUMN `community_type` text NULL;
-- Add column "blocked_source" to table: "organizations"
ALTER TABLE `organizations` ADD COLUMN `blocked_source` text NULL;
-- Add column "blocked_reason" to table: "organizations"
ALTER TABLE `organizations` ADD COLUMN `blocked_reason` text NULL;

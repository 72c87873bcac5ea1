-- Test-only: what make migration wrote after ent/schema's Organization got a
-- "motto" field (default "") and an optional "plan", with a data step added by
-- hand. The upgrade tests apply it after the real baseline.
-- Disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- Create "new_organizations" table
CREATE TABLE `new_organizations` (`id` text NOT NULL, `title` text NOT NULL, `created_at` datetime NOT NULL, `email_domains` json NOT NULL, `hostname` text NULL, `type` text NOT NULL DEFAULT ('business'), `default_role` text NULL, `invite_links` bool NOT NULL DEFAULT (false), `sso` bool NOT NULL DEFAULT (false), `ai` bool NOT NULL DEFAULT (false), `plan` text NULL DEFAULT ('free'), `motto` text NOT NULL DEFAULT (''), `merge_rules` json NOT NULL, PRIMARY KEY (`id`));
-- Copy rows from old table "organizations" to new temporary table "new_organizations"
INSERT INTO `new_organizations` (`id`, `title`, `created_at`, `email_domains`, `hostname`, `type`, `default_role`, `invite_links`, `sso`, `ai`, `plan`, `merge_rules`) SELECT `id`, `title`, `created_at`, `email_domains`, `hostname`, `type`, `default_role`, `invite_links`, `sso`, `ai`, `plan`, `merge_rules` FROM `organizations`;
-- Drop "organizations" table after copying rows
DROP TABLE `organizations`;
-- Rename temporary table "new_organizations" to "organizations"
ALTER TABLE `new_organizations` RENAME TO `organizations`;
-- Enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;
-- Give the organizations a motto
UPDATE `organizations` SET `motto` = 'Docs for everyone' WHERE `title` = 'Acme';

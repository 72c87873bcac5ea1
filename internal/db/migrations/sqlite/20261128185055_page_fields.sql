-- Disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- Create "new_page_versions" table
CREATE TABLE `new_page_versions` (`id` text NOT NULL, `space_id` text NOT NULL, `page_id` text NOT NULL, `parent_id` text NOT NULL DEFAULT (''), `position` text NOT NULL, `type` text NOT NULL DEFAULT ('document'), `title` text NOT NULL DEFAULT (''), `slug` text NOT NULL DEFAULT (''), `emoji` text NOT NULL DEFAULT (''), `description` text NOT NULL DEFAULT (''), `hidden` bool NOT NULL DEFAULT (false), `layout` json NULL, `cover` json NULL, `variables` json NULL, `link_title` text NOT NULL DEFAULT (''), `icon` text NOT NULL DEFAULT (''), `no_index` bool NOT NULL DEFAULT (false), `no_robots_index` bool NOT NULL DEFAULT (false), `meta_links` json NULL, `computed` json NULL, `computed_seed` text NOT NULL DEFAULT (''), `page_created_at` datetime NULL, `document_id` text NULL, `link` json NULL, `content_hash` text NOT NULL DEFAULT (''), `meta_hash` text NOT NULL DEFAULT (''), `refs` json NULL, `anchors` json NULL, `git` json NULL, `created_at` datetime NOT NULL, PRIMARY KEY (`id`));
-- Copy rows from old table "page_versions" to new temporary table "new_page_versions"
INSERT INTO `new_page_versions` (`id`, `space_id`, `page_id`, `parent_id`, `position`, `type`, `title`, `slug`, `emoji`, `description`, `hidden`, `layout`, `cover`, `variables`, `document_id`, `link`, `content_hash`, `meta_hash`, `refs`, `anchors`, `git`, `created_at`) SELECT `id`, `space_id`, `page_id`, `parent_id`, `position`, `type`, `title`, `slug`, `emoji`, `description`, `hidden`, `layout`, `cover`, `variables`, `document_id`, `link`, `content_hash`, `meta_hash`, `refs`, `anchors`, `git`, `created_at` FROM `page_versions`;
-- Drop "page_versions" table after copying rows
DROP TABLE `page_versions`;
-- Rename temporary table "new_page_versions" to "page_versions"
ALTER TABLE `new_page_versions` RENAME TO `page_versions`;
-- Create index "pageversion_space_id" to table: "page_versions"
CREATE INDEX `pageversion_space_id` ON `page_versions` (`space_id`);
-- Create index "pageversion_document_id" to table: "page_versions"
CREATE INDEX `pageversion_document_id` ON `page_versions` (`document_id`);
-- Enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;

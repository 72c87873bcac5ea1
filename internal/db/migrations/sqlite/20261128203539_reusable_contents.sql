-- Create "reusable_content_versions" table
CREATE TABLE `reusable_content_versions` (`id` text NOT NULL, `space_id` text NOT NULL, `reusable_content_id` text NOT NULL, `title` text NOT NULL, `document_id` text NOT NULL, `refs` json NULL, `git` json NULL, `created_at` datetime NOT NULL, PRIMARY KEY (`id`));
-- Create index "reusablecontentversion_space_id" to table: "reusable_content_versions"
CREATE INDEX `reusablecontentversion_space_id` ON `reusable_content_versions` (`space_id`);
-- Create index "reusablecontentversion_document_id" to table: "reusable_content_versions"
CREATE INDEX `reusablecontentversion_document_id` ON `reusable_content_versions` (`document_id`);

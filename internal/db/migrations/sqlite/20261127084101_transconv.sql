-- Disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- Create "new_change_requests" table
CREATE TABLE `new_change_requests` (`id` text NOT NULL, `number` integer NOT NULL, `subject` text NOT NULL DEFAULT (''), `description` text NULL, `status` text NOT NULL DEFAULT ('draft'), `created_by` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `revision_initial` text NOT NULL, `revision_id` text NOT NULL, `revision_merged_ancestor` text NULL, `revision_merged` text NULL, `merged_at` datetime NULL, `contributors` json NULL, `conversations_issues_cluster` text NULL, `space_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `change_requests_spaces_change_request_list` FOREIGN KEY (`space_id`) REFERENCES `spaces` (`id`) ON DELETE CASCADE);
-- Copy rows from old table "change_requests" to new temporary table "new_change_requests"
INSERT INTO `new_change_requests` (`id`, `number`, `subject`, `description`, `status`, `created_by`, `created_at`, `updated_at`, `revision_initial`, `revision_id`, `revision_merged_ancestor`, `revision_merged`, `merged_at`, `contributors`, `space_id`) SELECT `id`, `number`, `subject`, `description`, `status`, `created_by`, `created_at`, `updated_at`, `revision_initial`, `revision_id`, `revision_merged_ancestor`, `revision_merged`, `merged_at`, `contributors`, `space_id` FROM `change_requests`;
-- Drop "change_requests" table after copying rows
DROP TABLE `change_requests`;
-- Rename temporary table "new_change_requests" to "change_requests"
ALTER TABLE `new_change_requests` RENAME TO `change_requests`;
-- Create index "changerequest_space_id_number" to table: "change_requests"
CREATE UNIQUE INDEX `changerequest_space_id_number` ON `change_requests` (`space_id`, `number`);
-- Create index "changerequest_space_id_status" to table: "change_requests"
CREATE INDEX `changerequest_space_id_status` ON `change_requests` (`space_id`, `status`);
-- Create index "changerequest_conversations_issues_cluster" to table: "change_requests"
CREATE INDEX `changerequest_conversations_issues_cluster` ON `change_requests` (`conversations_issues_cluster`);
-- Create "conversations" table
CREATE TABLE `conversations` (`id` text NOT NULL, `organization_id` text NOT NULL, `external_id` text NOT NULL, `source` text NOT NULL, `subject` text NULL, `parts` json NOT NULL, `metadata_url` text NULL, `metadata_attributes` json NULL, `metadata_created_at` datetime NULL, `created_at` datetime NOT NULL, `ingested_at` datetime NOT NULL, `content_hash` text NOT NULL, `pending` bool NOT NULL DEFAULT (true), `processed_at` datetime NULL, `impact` text NOT NULL DEFAULT (''), PRIMARY KEY (`id`));
-- Create index "conversation_organization_id_external_id" to table: "conversations"
CREATE UNIQUE INDEX `conversation_organization_id_external_id` ON `conversations` (`organization_id`, `external_id`);
-- Create index "conversation_organization_id_source" to table: "conversations"
CREATE INDEX `conversation_organization_id_source` ON `conversations` (`organization_id`, `source`);
-- Create index "conversation_organization_id_pending" to table: "conversations"
CREATE INDEX `conversation_organization_id_pending` ON `conversations` (`organization_id`, `pending`);
-- Create "conversation_corpus" table
CREATE TABLE `conversation_corpus` (`id` text NOT NULL, `documents` integer NOT NULL DEFAULT (0), `df` json NOT NULL, `next_cluster` integer NOT NULL DEFAULT (1), `updated_at` datetime NOT NULL, PRIMARY KEY (`id`));
-- Create "conversation_issues" table
CREATE TABLE `conversation_issues` (`id` text NOT NULL, `organization_id` text NOT NULL, `ordinal` integer NOT NULL, `title` text NOT NULL, `details` text NOT NULL, `excerpt` text NOT NULL, `impact` text NOT NULL, `signals` json NOT NULL, `terms` json NOT NULL, `forms` json NOT NULL, `source` text NOT NULL, `created_at` datetime NOT NULL, `ingested_at` datetime NOT NULL, `conversation_id` text NOT NULL, `cluster_id` text NULL, PRIMARY KEY (`id`), CONSTRAINT `conversation_issues_conversations_issues` FOREIGN KEY (`conversation_id`) REFERENCES `conversations` (`id`) ON DELETE CASCADE, CONSTRAINT `conversation_issues_issues_clusters_issues` FOREIGN KEY (`cluster_id`) REFERENCES `issues_clusters` (`id`) ON DELETE SET NULL);
-- Create index "conversationissue_organization_id_created_at" to table: "conversation_issues"
CREATE INDEX `conversationissue_organization_id_created_at` ON `conversation_issues` (`organization_id`, `created_at`);
-- Create index "conversationissue_cluster_id_created_at" to table: "conversation_issues"
CREATE INDEX `conversationissue_cluster_id_created_at` ON `conversation_issues` (`cluster_id`, `created_at`);
-- Create index "conversationissue_conversation_id_ordinal" to table: "conversation_issues"
CREATE INDEX `conversationissue_conversation_id_ordinal` ON `conversation_issues` (`conversation_id`, `ordinal`);
-- Create "issues_clusters" table
CREATE TABLE `issues_clusters` (`id` text NOT NULL, `organization_id` text NOT NULL, `seq` integer NOT NULL, `label` text NOT NULL, `icon` text NOT NULL, `summary` text NOT NULL, `muted` bool NOT NULL DEFAULT (false), `impact` text NOT NULL DEFAULT ('low'), `key_terms` json NOT NULL, `centroid` json NOT NULL, `forms` json NOT NULL, `examples` json NOT NULL, `issue_count` integer NOT NULL DEFAULT (0), `conversation_count` integer NOT NULL DEFAULT (0), `sources` json NOT NULL, `impacts` json NOT NULL, `weeks` json NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, PRIMARY KEY (`id`));
-- Create index "issuescluster_organization_id_seq" to table: "issues_clusters"
CREATE UNIQUE INDEX `issuescluster_organization_id_seq` ON `issues_clusters` (`organization_id`, `seq`);
-- Create index "issuescluster_organization_id_updated_at" to table: "issues_clusters"
CREATE INDEX `issuescluster_organization_id_updated_at` ON `issues_clusters` (`organization_id`, `updated_at`);
-- Create "translations" table
CREATE TABLE `translations` (`id` text NOT NULL, `organization_id` text NOT NULL, `source_space_id` text NOT NULL, `source_language` text NOT NULL, `language` text NOT NULL, `instructions` text NULL, `status` text NOT NULL DEFAULT ('pending'), `result_space_id` text NULL, `result_revision_id` text NULL, `applied_instructions` text NOT NULL DEFAULT (''), `runs` integer NOT NULL DEFAULT (0), `total_words` integer NOT NULL DEFAULT (0), `total_pages` integer NOT NULL DEFAULT (0), `total_duration_ms` integer NOT NULL DEFAULT (0), `latest_duration_ms` integer NOT NULL DEFAULT (0), `latest_pages` integer NOT NULL DEFAULT (0), `latest_words` integer NOT NULL DEFAULT (0), `created_by` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, PRIMARY KEY (`id`));
-- Create index "translation_organization_id_created_at" to table: "translations"
CREATE INDEX `translation_organization_id_created_at` ON `translations` (`organization_id`, `created_at`);
-- Create index "translation_source_space_id" to table: "translations"
CREATE INDEX `translation_source_space_id` ON `translations` (`source_space_id`);
-- Create index "translation_result_space_id" to table: "translations"
CREATE INDEX `translation_result_space_id` ON `translations` (`result_space_id`);
-- Create "translation_files" table
CREATE TABLE `translation_files` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `source_file_id` text NOT NULL, `result_file_id` text NOT NULL, `source_version` text NOT NULL DEFAULT (''), `translation_id` text NOT NULL, CONSTRAINT `translation_files_translations_files` FOREIGN KEY (`translation_id`) REFERENCES `translations` (`id`) ON DELETE CASCADE);
-- Create index "translationfile_translation_id_source_file_id" to table: "translation_files"
CREATE UNIQUE INDEX `translationfile_translation_id_source_file_id` ON `translation_files` (`translation_id`, `source_file_id`);
-- Create "translation_pages" table
CREATE TABLE `translation_pages` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `source_page_id` text NOT NULL, `result_page_id` text NOT NULL, `source_version` text NOT NULL DEFAULT (''), `text_hash` text NOT NULL DEFAULT (''), `translation_id` text NOT NULL, CONSTRAINT `translation_pages_translations_pages` FOREIGN KEY (`translation_id`) REFERENCES `translations` (`id`) ON DELETE CASCADE);
-- Create index "translationpage_translation_id_source_page_id" to table: "translation_pages"
CREATE UNIQUE INDEX `translationpage_translation_id_source_page_id` ON `translation_pages` (`translation_id`, `source_page_id`);
-- Enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;

-- Create "api_tokens" table
CREATE TABLE `api_tokens` (`id` text NOT NULL, `token_hash` text NOT NULL, `label` text NOT NULL DEFAULT (''), `created_at` datetime NOT NULL, `user_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `api_tokens_users_tokens` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`) ON DELETE CASCADE);
-- Create index "api_tokens_token_hash_key" to table: "api_tokens"
CREATE UNIQUE INDEX `api_tokens_token_hash_key` ON `api_tokens` (`token_hash`);
-- Create "change_requests" table
CREATE TABLE `change_requests` (`id` text NOT NULL, `number` integer NOT NULL, `subject` text NOT NULL DEFAULT (''), `description` text NULL, `status` text NOT NULL DEFAULT ('draft'), `created_by` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `revision_initial` text NOT NULL, `revision_id` text NOT NULL, `revision_merged_ancestor` text NULL, `revision_merged` text NULL, `merged_at` datetime NULL, `contributors` json NULL, `space_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `change_requests_spaces_change_request_list` FOREIGN KEY (`space_id`) REFERENCES `spaces` (`id`) ON DELETE CASCADE);
-- Create index "changerequest_space_id_number" to table: "change_requests"
CREATE UNIQUE INDEX `changerequest_space_id_number` ON `change_requests` (`space_id`, `number`);
-- Create index "changerequest_space_id_status" to table: "change_requests"
CREATE INDEX `changerequest_space_id_status` ON `change_requests` (`space_id`, `status`);
-- Create "collections" table
CREATE TABLE `collections` (`id` text NOT NULL, `title` text NOT NULL, `description` text NULL, `default_level` text NULL, `position` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `parent_id` text NULL, `organization_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `collections_collections_children` FOREIGN KEY (`parent_id`) REFERENCES `collections` (`id`) ON DELETE SET NULL, CONSTRAINT `collections_organizations_collections` FOREIGN KEY (`organization_id`) REFERENCES `organizations` (`id`) ON DELETE NO ACTION);
-- Create index "collection_organization_id_position" to table: "collections"
CREATE INDEX `collection_organization_id_position` ON `collections` (`organization_id`, `position`);
-- Create index "collection_parent_id" to table: "collections"
CREATE INDEX `collection_parent_id` ON `collections` (`parent_id`);
-- Create "content_blobs" table
CREATE TABLE `content_blobs` (`id` text NOT NULL, `data` blob NOT NULL, `size` integer NOT NULL, `created_at` datetime NOT NULL, PRIMARY KEY (`id`));
-- Create "file_versions" table
CREATE TABLE `file_versions` (`id` text NOT NULL, `space_id` text NOT NULL, `file_id` text NOT NULL, `name` text NOT NULL, `content_type` text NOT NULL, `size` integer NOT NULL, `blob_id` text NOT NULL, `width` integer NULL, `height` integer NULL, `created_at` datetime NOT NULL, PRIMARY KEY (`id`));
-- Create index "fileversion_space_id" to table: "file_versions"
CREATE INDEX `fileversion_space_id` ON `file_versions` (`space_id`);
-- Create index "fileversion_blob_id" to table: "file_versions"
CREATE INDEX `fileversion_blob_id` ON `file_versions` (`blob_id`);
-- Create "job_leases" table
CREATE TABLE `job_leases` (`id` text NOT NULL, `holder` text NOT NULL DEFAULT (''), `locked_until` datetime NOT NULL, PRIMARY KEY (`id`));
-- Create "members" table
CREATE TABLE `members` (`id` text NOT NULL, `role` text NULL, `disabled` bool NOT NULL DEFAULT (false), `sso` bool NOT NULL DEFAULT (false), `joined_at` datetime NOT NULL, `last_seen_at` datetime NULL, `organization_id` text NOT NULL, `user_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `members_organizations_members` FOREIGN KEY (`organization_id`) REFERENCES `organizations` (`id`) ON DELETE CASCADE, CONSTRAINT `members_users_memberships` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`) ON DELETE CASCADE);
-- Create index "member_organization_id_user_id" to table: "members"
CREATE UNIQUE INDEX `member_organization_id_user_id` ON `members` (`organization_id`, `user_id`);
-- Create index "member_user_id" to table: "members"
CREATE INDEX `member_user_id` ON `members` (`user_id`);
-- Create "organizations" table
CREATE TABLE `organizations` (`id` text NOT NULL, `title` text NOT NULL, `created_at` datetime NOT NULL, `email_domains` json NOT NULL, `hostname` text NULL, `type` text NOT NULL DEFAULT ('business'), `default_role` text NULL, `invite_links` bool NOT NULL DEFAULT (false), `sso` bool NOT NULL DEFAULT (false), `ai` bool NOT NULL DEFAULT (false), `plan` text NOT NULL DEFAULT ('free'), `merge_rules` json NOT NULL, PRIMARY KEY (`id`));
-- Create "page_versions" table
CREATE TABLE `page_versions` (`id` text NOT NULL, `space_id` text NOT NULL, `page_id` text NOT NULL, `parent_id` text NOT NULL DEFAULT (''), `position` text NOT NULL, `type` text NOT NULL DEFAULT ('document'), `title` text NOT NULL DEFAULT (''), `slug` text NOT NULL DEFAULT (''), `emoji` text NOT NULL DEFAULT (''), `description` text NOT NULL DEFAULT (''), `hidden` bool NOT NULL DEFAULT (false), `layout` json NULL, `cover` json NULL, `variables` json NULL, `document_id` text NULL, `link` json NULL, `content_hash` text NOT NULL DEFAULT (''), `meta_hash` text NOT NULL DEFAULT (''), `refs` json NULL, `anchors` json NULL, `created_at` datetime NOT NULL, PRIMARY KEY (`id`));
-- Create index "pageversion_space_id" to table: "page_versions"
CREATE INDEX `pageversion_space_id` ON `page_versions` (`space_id`);
-- Create index "pageversion_document_id" to table: "page_versions"
CREATE INDEX `pageversion_document_id` ON `page_versions` (`document_id`);
-- Create "revisions" table
CREATE TABLE `revisions` (`id` text NOT NULL, `type` text NOT NULL DEFAULT ('edits'), `parents` json NOT NULL, `created_at` datetime NOT NULL, `base_id` text NULL, `chain` json NULL, `change_request_id` text NULL, `author_id` text NULL, `variables` json NULL, `space_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `revisions_spaces_revisions` FOREIGN KEY (`space_id`) REFERENCES `spaces` (`id`) ON DELETE CASCADE);
-- Create "revision_entries" table
CREATE TABLE `revision_entries` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `space_id` text NOT NULL, `kind` text NOT NULL, `item_id` text NOT NULL, `version_id` text NULL, `revision_id` text NOT NULL, CONSTRAINT `revision_entries_revisions_entries` FOREIGN KEY (`revision_id`) REFERENCES `revisions` (`id`) ON DELETE CASCADE);
-- Create index "revisionentry_revision_id_kind_item_id" to table: "revision_entries"
CREATE UNIQUE INDEX `revisionentry_revision_id_kind_item_id` ON `revision_entries` (`revision_id`, `kind`, `item_id`);
-- Create index "revisionentry_version_id" to table: "revision_entries"
CREATE INDEX `revisionentry_version_id` ON `revision_entries` (`version_id`);
-- Create index "revisionentry_space_id" to table: "revision_entries"
CREATE INDEX `revisionentry_space_id` ON `revision_entries` (`space_id`);
-- Create "server_secrets" table
CREATE TABLE `server_secrets` (`id` text NOT NULL, `value` blob NOT NULL, `created_at` datetime NOT NULL, PRIMARY KEY (`id`));
-- Create "sites" table
CREATE TABLE `sites` (`id` text NOT NULL, `type` text NOT NULL DEFAULT ('basic'), `title` text NOT NULL, `visibility` text NOT NULL DEFAULT ('public'), `published` bool NOT NULL DEFAULT (false), `basename` text NOT NULL, `hostname` text NULL, `proxy` text NULL, `adaptive_content` bool NOT NULL DEFAULT (false), `agents_context` text NOT NULL DEFAULT ('included'), `ads_status` text NOT NULL DEFAULT ('pending'), `default_site_space_id` text NULL, `default_section_id` text NULL, `customization` blob NULL, `adaptive_schema` blob NULL, `adaptive_schema_updated_at` datetime NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `organization_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `sites_organizations_sites` FOREIGN KEY (`organization_id`) REFERENCES `organizations` (`id`) ON DELETE NO ACTION);
-- Create index "site_organization_id" to table: "sites"
CREATE INDEX `site_organization_id` ON `sites` (`organization_id`);
-- Create "site_sections" table
CREATE TABLE `site_sections` (`id` text NOT NULL, `group_id` text NULL, `title` text NOT NULL, `description` text NULL, `path` text NOT NULL, `condition` text NULL, `icon` text NULL, `default_site_space_id` text NULL, `position` text NOT NULL, `created_at` datetime NOT NULL, `site_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `site_sections_sites_sections` FOREIGN KEY (`site_id`) REFERENCES `sites` (`id`) ON DELETE CASCADE);
-- Create index "sitesection_site_id_position" to table: "site_sections"
CREATE INDEX `sitesection_site_id_position` ON `site_sections` (`site_id`, `position`);
-- Create "site_section_groups" table
CREATE TABLE `site_section_groups` (`id` text NOT NULL, `parent_id` text NULL, `title` text NOT NULL, `icon` text NULL, `position` text NOT NULL, `created_at` datetime NOT NULL, `site_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `site_section_groups_sites_section_groups` FOREIGN KEY (`site_id`) REFERENCES `sites` (`id`) ON DELETE CASCADE);
-- Create index "sitesectiongroup_site_id_position" to table: "site_section_groups"
CREATE INDEX `sitesectiongroup_site_id_position` ON `site_section_groups` (`site_id`, `position`);
-- Create "site_share_links" table
CREATE TABLE `site_share_links` (`id` text NOT NULL, `name` text NOT NULL DEFAULT (''), `active` bool NOT NULL DEFAULT (true), `key` text NOT NULL, `created_at` datetime NOT NULL, `site_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `site_share_links_sites_share_links` FOREIGN KEY (`site_id`) REFERENCES `sites` (`id`) ON DELETE CASCADE);
-- Create index "site_share_links_key_key" to table: "site_share_links"
CREATE UNIQUE INDEX `site_share_links_key_key` ON `site_share_links` (`key`);
-- Create "site_spaces" table
CREATE TABLE `site_spaces` (`id` text NOT NULL, `section_id` text NULL, `path` text NOT NULL, `condition` text NULL, `hidden` bool NOT NULL DEFAULT (false), `position` text NOT NULL, `customization` blob NULL, `created_at` datetime NOT NULL, `site_id` text NOT NULL, `space_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `site_spaces_sites_site_spaces` FOREIGN KEY (`site_id`) REFERENCES `sites` (`id`) ON DELETE CASCADE, CONSTRAINT `site_spaces_spaces_site_spaces` FOREIGN KEY (`space_id`) REFERENCES `spaces` (`id`) ON DELETE CASCADE);
-- Create index "sitespace_site_id_position" to table: "site_spaces"
CREATE INDEX `sitespace_site_id_position` ON `site_spaces` (`site_id`, `position`);
-- Create index "sitespace_section_id" to table: "site_spaces"
CREATE INDEX `sitespace_section_id` ON `site_spaces` (`section_id`);
-- Create index "sitespace_space_id" to table: "site_spaces"
CREATE INDEX `sitespace_space_id` ON `site_spaces` (`space_id`);
-- Create "spaces" table
CREATE TABLE `spaces` (`id` text NOT NULL, `title` text NOT NULL, `emoji` text NOT NULL DEFAULT (''), `icon` text NULL, `visibility` text NOT NULL DEFAULT ('private'), `default_level` text NULL, `edit_mode` text NOT NULL DEFAULT ('live'), `language` text NULL, `merge_rules` json NOT NULL, `position` text NOT NULL, `revision_id` text NOT NULL DEFAULT (''), `change_requests` integer NOT NULL DEFAULT (0), `change_requests_open` integer NOT NULL DEFAULT (0), `change_requests_draft` integer NOT NULL DEFAULT (0), `comments` integer NOT NULL DEFAULT (0), `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `deleted_at` datetime NULL, `parent_id` text NULL, `organization_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `spaces_collections_spaces` FOREIGN KEY (`parent_id`) REFERENCES `collections` (`id`) ON DELETE SET NULL, CONSTRAINT `spaces_organizations_spaces` FOREIGN KEY (`organization_id`) REFERENCES `organizations` (`id`) ON DELETE NO ACTION);
-- Create index "space_organization_id_position" to table: "spaces"
CREATE INDEX `space_organization_id_position` ON `spaces` (`organization_id`, `position`);
-- Create index "space_parent_id" to table: "spaces"
CREATE INDEX `space_parent_id` ON `spaces` (`parent_id`);
-- Create index "space_deleted_at" to table: "spaces"
CREATE INDEX `space_deleted_at` ON `spaces` (`deleted_at`);
-- Create "users" table
CREATE TABLE `users` (`id` text NOT NULL, `email` text NOT NULL, `display_name` text NOT NULL, `photo_url` text NULL, `created_at` datetime NOT NULL, PRIMARY KEY (`id`));
-- Create index "users_email_key" to table: "users"
CREATE UNIQUE INDEX `users_email_key` ON `users` (`email`);

-- Create "openapi_specs" table
CREATE TABLE `openapi_specs` (`id` text NOT NULL, `organization_id` text NOT NULL, `slug` text NOT NULL, `source_url` text NULL, `source_text` text NULL, `visibility` text NOT NULL DEFAULT ('private'), `processing_state` text NOT NULL DEFAULT ('pending'), `generation` integer NOT NULL DEFAULT (1), `last_version_id` text NULL, `last_processed_at` datetime NULL, `last_process_error_code` text NULL, `last_processed_errors` json NOT NULL, `created_by` text NOT NULL DEFAULT (''), `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, PRIMARY KEY (`id`));
-- Create index "openapispec_organization_id_slug" to table: "openapi_specs"
CREATE UNIQUE INDEX `openapispec_organization_id_slug` ON `openapi_specs` (`organization_id`, `slug`);
-- Create "openapi_spec_blobs" table
CREATE TABLE `openapi_spec_blobs` (`id` text NOT NULL, `text` text NOT NULL, `size` integer NOT NULL, `created_at` datetime NOT NULL, PRIMARY KEY (`id`));
-- Create "openapi_spec_files" table
CREATE TABLE `openapi_spec_files` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `path` text NOT NULL, `blob_id` text NOT NULL, `version_id` text NOT NULL, CONSTRAINT `openapi_spec_files_openapi_spec_blobs_files` FOREIGN KEY (`blob_id`) REFERENCES `openapi_spec_blobs` (`id`) ON DELETE NO ACTION, CONSTRAINT `openapi_spec_files_openapi_spec_versions_files` FOREIGN KEY (`version_id`) REFERENCES `openapi_spec_versions` (`id`) ON DELETE CASCADE);
-- Create index "openapispecfile_version_id_path" to table: "openapi_spec_files"
CREATE UNIQUE INDEX `openapispecfile_version_id_path` ON `openapi_spec_files` (`version_id`, `path`);
-- Create index "openapispecfile_blob_id" to table: "openapi_spec_files"
CREATE INDEX `openapispecfile_blob_id` ON `openapi_spec_files` (`blob_id`);
-- Create "openapi_spec_versions" table
CREATE TABLE `openapi_spec_versions` (`id` text NOT NULL, `root` text NOT NULL, `content_hash` text NOT NULL, `source_url` text NULL, `size` integer NOT NULL, `file_count` integer NOT NULL, `created_at` datetime NOT NULL, `spec_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `openapi_spec_versions_openapi_specs_versions` FOREIGN KEY (`spec_id`) REFERENCES `openapi_specs` (`id`) ON DELETE CASCADE);
-- Create index "openapispecversion_spec_id_created_at" to table: "openapi_spec_versions"
CREATE INDEX `openapispecversion_spec_id_created_at` ON `openapi_spec_versions` (`spec_id`, `created_at`);

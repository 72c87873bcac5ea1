-- Create "page_versions" table
CREATE TABLE "page_versions" ("id" character varying NOT NULL, "space_id" character varying NOT NULL, "page_id" character varying NOT NULL, "parent_id" character varying NOT NULL DEFAULT '', "position" character varying NOT NULL, "type" character varying NOT NULL DEFAULT 'document', "title" character varying NOT NULL DEFAULT '', "slug" character varying NOT NULL DEFAULT '', "emoji" character varying NOT NULL DEFAULT '', "description" character varying NOT NULL DEFAULT '', "hidden" boolean NOT NULL DEFAULT false, "layout" jsonb NULL, "cover" jsonb NULL, "variables" jsonb NULL, "document_id" character varying NULL, "link" jsonb NULL, "content_hash" character varying NOT NULL DEFAULT '', "meta_hash" character varying NOT NULL DEFAULT '', "refs" jsonb NULL, "anchors" jsonb NULL, "created_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- Create index "pageversion_document_id" to table: "page_versions"
CREATE INDEX "pageversion_document_id" ON "page_versions" ("document_id");
-- Create index "pageversion_space_id" to table: "page_versions"
CREATE INDEX "pageversion_space_id" ON "page_versions" ("space_id");
-- Create "file_versions" table
CREATE TABLE "file_versions" ("id" character varying NOT NULL, "space_id" character varying NOT NULL, "file_id" character varying NOT NULL, "name" character varying NOT NULL, "content_type" character varying NOT NULL, "size" bigint NOT NULL, "blob_id" character varying NOT NULL, "width" bigint NULL, "height" bigint NULL, "created_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- Create index "fileversion_blob_id" to table: "file_versions"
CREATE INDEX "fileversion_blob_id" ON "file_versions" ("blob_id");
-- Create index "fileversion_space_id" to table: "file_versions"
CREATE INDEX "fileversion_space_id" ON "file_versions" ("space_id");
-- Create "job_leases" table
CREATE TABLE "job_leases" ("id" character varying NOT NULL, "holder" character varying NOT NULL DEFAULT '', "locked_until" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- Create "content_blobs" table
CREATE TABLE "content_blobs" ("id" character varying NOT NULL, "data" bytea NOT NULL, "size" bigint NOT NULL, "created_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- Create "server_secrets" table
CREATE TABLE "server_secrets" ("id" character varying NOT NULL, "value" bytea NOT NULL, "created_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- Create "users" table
CREATE TABLE "users" ("id" character varying NOT NULL, "email" character varying NOT NULL, "display_name" character varying NOT NULL, "photo_url" character varying NULL, "created_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- Create index "users_email_key" to table: "users"
CREATE UNIQUE INDEX "users_email_key" ON "users" ("email");
-- Create "api_tokens" table
CREATE TABLE "api_tokens" ("id" character varying NOT NULL, "token_hash" character varying NOT NULL, "label" character varying NOT NULL DEFAULT '', "created_at" timestamptz NOT NULL, "user_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "api_tokens_users_tokens" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON UPDATE NO ACTION ON DELETE CASCADE);
-- Create index "api_tokens_token_hash_key" to table: "api_tokens"
CREATE UNIQUE INDEX "api_tokens_token_hash_key" ON "api_tokens" ("token_hash");
-- Create "organizations" table
CREATE TABLE "organizations" ("id" character varying NOT NULL, "title" character varying NOT NULL, "created_at" timestamptz NOT NULL, "email_domains" jsonb NOT NULL, "hostname" character varying NULL, "type" character varying NOT NULL DEFAULT 'business', "default_role" character varying NULL, "invite_links" boolean NOT NULL DEFAULT false, "sso" boolean NOT NULL DEFAULT false, "ai" boolean NOT NULL DEFAULT false, "plan" character varying NOT NULL DEFAULT 'free', "merge_rules" jsonb NOT NULL, PRIMARY KEY ("id"));
-- Create "collections" table
CREATE TABLE "collections" ("id" character varying NOT NULL, "title" character varying NOT NULL, "description" character varying NULL, "default_level" character varying NULL, "position" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "parent_id" character varying NULL, "organization_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "collections_collections_children" FOREIGN KEY ("parent_id") REFERENCES "collections" ("id") ON UPDATE NO ACTION ON DELETE SET NULL, CONSTRAINT "collections_organizations_collections" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "collection_organization_id_position" to table: "collections"
CREATE INDEX "collection_organization_id_position" ON "collections" ("organization_id", "position");
-- Create index "collection_parent_id" to table: "collections"
CREATE INDEX "collection_parent_id" ON "collections" ("parent_id");
-- Create "spaces" table
CREATE TABLE "spaces" ("id" character varying NOT NULL, "title" character varying NOT NULL, "emoji" character varying NOT NULL DEFAULT '', "icon" character varying NULL, "visibility" character varying NOT NULL DEFAULT 'private', "default_level" character varying NULL, "edit_mode" character varying NOT NULL DEFAULT 'live', "language" character varying NULL, "merge_rules" jsonb NOT NULL, "position" character varying NOT NULL, "revision_id" character varying NOT NULL DEFAULT '', "change_requests" bigint NOT NULL DEFAULT 0, "change_requests_open" bigint NOT NULL DEFAULT 0, "change_requests_draft" bigint NOT NULL DEFAULT 0, "comments" bigint NOT NULL DEFAULT 0, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "deleted_at" timestamptz NULL, "parent_id" character varying NULL, "organization_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "spaces_collections_spaces" FOREIGN KEY ("parent_id") REFERENCES "collections" ("id") ON UPDATE NO ACTION ON DELETE SET NULL, CONSTRAINT "spaces_organizations_spaces" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "space_deleted_at" to table: "spaces"
CREATE INDEX "space_deleted_at" ON "spaces" ("deleted_at");
-- Create index "space_organization_id_position" to table: "spaces"
CREATE INDEX "space_organization_id_position" ON "spaces" ("organization_id", "position");
-- Create index "space_parent_id" to table: "spaces"
CREATE INDEX "space_parent_id" ON "spaces" ("parent_id");
-- Create "change_requests" table
CREATE TABLE "change_requests" ("id" character varying NOT NULL, "number" bigint NOT NULL, "subject" character varying NOT NULL DEFAULT '', "description" text NULL, "status" character varying NOT NULL DEFAULT 'draft', "created_by" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "revision_initial" character varying NOT NULL, "revision_id" character varying NOT NULL, "revision_merged_ancestor" character varying NULL, "revision_merged" character varying NULL, "merged_at" timestamptz NULL, "contributors" jsonb NULL, "space_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "change_requests_spaces_change_request_list" FOREIGN KEY ("space_id") REFERENCES "spaces" ("id") ON UPDATE NO ACTION ON DELETE CASCADE);
-- Create index "changerequest_space_id_number" to table: "change_requests"
CREATE UNIQUE INDEX "changerequest_space_id_number" ON "change_requests" ("space_id", "number");
-- Create index "changerequest_space_id_status" to table: "change_requests"
CREATE INDEX "changerequest_space_id_status" ON "change_requests" ("space_id", "status");
-- Create "members" table
CREATE TABLE "members" ("id" character varying NOT NULL, "role" character varying NULL, "disabled" boolean NOT NULL DEFAULT false, "sso" boolean NOT NULL DEFAULT false, "joined_at" timestamptz NOT NULL, "last_seen_at" timestamptz NULL, "organization_id" character varying NOT NULL, "user_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "members_organizations_members" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, CONSTRAINT "members_users_memberships" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON UPDATE NO ACTION ON DELETE CASCADE);
-- Create index "member_organization_id_user_id" to table: "members"
CREATE UNIQUE INDEX "member_organization_id_user_id" ON "members" ("organization_id", "user_id");
-- Create index "member_user_id" to table: "members"
CREATE INDEX "member_user_id" ON "members" ("user_id");
-- Create "revisions" table
CREATE TABLE "revisions" ("id" character varying NOT NULL, "type" character varying NOT NULL DEFAULT 'edits', "parents" jsonb NOT NULL, "created_at" timestamptz NOT NULL, "base_id" character varying NULL, "chain" jsonb NULL, "change_request_id" character varying NULL, "author_id" character varying NULL, "variables" jsonb NULL, "space_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "revisions_spaces_revisions" FOREIGN KEY ("space_id") REFERENCES "spaces" ("id") ON UPDATE NO ACTION ON DELETE CASCADE);
-- Create "revision_entries" table
CREATE TABLE "revision_entries" ("id" bigint NOT NULL GENERATED BY DEFAULT AS IDENTITY, "space_id" character varying NOT NULL, "kind" character varying NOT NULL, "item_id" character varying NOT NULL, "version_id" character varying NULL, "revision_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "revision_entries_revisions_entries" FOREIGN KEY ("revision_id") REFERENCES "revisions" ("id") ON UPDATE NO ACTION ON DELETE CASCADE);
-- Create index "revisionentry_revision_id_kind_item_id" to table: "revision_entries"
CREATE UNIQUE INDEX "revisionentry_revision_id_kind_item_id" ON "revision_entries" ("revision_id", "kind", "item_id");
-- Create index "revisionentry_space_id" to table: "revision_entries"
CREATE INDEX "revisionentry_space_id" ON "revision_entries" ("space_id");
-- Create index "revisionentry_version_id" to table: "revision_entries"
CREATE INDEX "revisionentry_version_id" ON "revision_entries" ("version_id");
-- Create "sites" table
CREATE TABLE "sites" ("id" character varying NOT NULL, "type" character varying NOT NULL DEFAULT 'basic', "title" character varying NOT NULL, "visibility" character varying NOT NULL DEFAULT 'public', "published" boolean NOT NULL DEFAULT false, "basename" character varying NOT NULL, "hostname" character varying NULL, "proxy" character varying NULL, "adaptive_content" boolean NOT NULL DEFAULT false, "agents_context" character varying NOT NULL DEFAULT 'included', "ads_status" character varying NOT NULL DEFAULT 'pending', "default_site_space_id" character varying NULL, "default_section_id" character varying NULL, "customization" bytea NULL, "adaptive_schema" bytea NULL, "adaptive_schema_updated_at" timestamptz NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "organization_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "sites_organizations_sites" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "site_organization_id" to table: "sites"
CREATE INDEX "site_organization_id" ON "sites" ("organization_id");
-- Create "site_section_groups" table
CREATE TABLE "site_section_groups" ("id" character varying NOT NULL, "parent_id" character varying NULL, "title" character varying NOT NULL, "icon" character varying NULL, "position" character varying NOT NULL, "created_at" timestamptz NOT NULL, "site_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "site_section_groups_sites_section_groups" FOREIGN KEY ("site_id") REFERENCES "sites" ("id") ON UPDATE NO ACTION ON DELETE CASCADE);
-- Create index "sitesectiongroup_site_id_position" to table: "site_section_groups"
CREATE INDEX "sitesectiongroup_site_id_position" ON "site_section_groups" ("site_id", "position");
-- Create "site_sections" table
CREATE TABLE "site_sections" ("id" character varying NOT NULL, "group_id" character varying NULL, "title" character varying NOT NULL, "description" character varying NULL, "path" character varying NOT NULL, "condition" character varying NULL, "icon" character varying NULL, "default_site_space_id" character varying NULL, "position" character varying NOT NULL, "created_at" timestamptz NOT NULL, "site_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "site_sections_sites_sections" FOREIGN KEY ("site_id") REFERENCES "sites" ("id") ON UPDATE NO ACTION ON DELETE CASCADE);
-- Create index "sitesection_site_id_position" to table: "site_sections"
CREATE INDEX "sitesection_site_id_position" ON "site_sections" ("site_id", "position");
-- Create "site_share_links" table
CREATE TABLE "site_share_links" ("id" character varying NOT NULL, "name" character varying NOT NULL DEFAULT '', "active" boolean NOT NULL DEFAULT true, "key" character varying NOT NULL, "created_at" timestamptz NOT NULL, "site_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "site_share_links_sites_share_links" FOREIGN KEY ("site_id") REFERENCES "sites" ("id") ON UPDATE NO ACTION ON DELETE CASCADE);
-- Create index "site_share_links_key_key" to table: "site_share_links"
CREATE UNIQUE INDEX "site_share_links_key_key" ON "site_share_links" ("key");
-- Create "site_spaces" table
CREATE TABLE "site_spaces" ("id" character varying NOT NULL, "section_id" character varying NULL, "path" character varying NOT NULL, "condition" character varying NULL, "hidden" boolean NOT NULL DEFAULT false, "position" character varying NOT NULL, "customization" bytea NULL, "created_at" timestamptz NOT NULL, "site_id" character varying NOT NULL, "space_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "site_spaces_sites_site_spaces" FOREIGN KEY ("site_id") REFERENCES "sites" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, CONSTRAINT "site_spaces_spaces_site_spaces" FOREIGN KEY ("space_id") REFERENCES "spaces" ("id") ON UPDATE NO ACTION ON DELETE CASCADE);
-- Create index "sitespace_section_id" to table: "site_spaces"
CREATE INDEX "sitespace_section_id" ON "site_spaces" ("section_id");
-- Create index "sitespace_site_id_position" to table: "site_spaces"
CREATE INDEX "sitespace_site_id_position" ON "site_spaces" ("site_id", "position");
-- Create index "sitespace_space_id" to table: "site_spaces"
CREATE INDEX "sitespace_space_id" ON "site_spaces" ("space_id");

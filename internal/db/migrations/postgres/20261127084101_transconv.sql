-- Modify "change_requests" table
ALTER TABLE "change_requests" ADD COLUMN "conversations_issues_cluster" character varying NULL;
-- Create index "changerequest_conversations_issues_cluster" to table: "change_requests"
CREATE INDEX "changerequest_conversations_issues_cluster" ON "change_requests" ("conversations_issues_cluster");
-- Create "conversations" table
CREATE TABLE "conversations" ("id" character varying NOT NULL, "organization_id" character varying NOT NULL, "external_id" character varying NOT NULL, "source" character varying NOT NULL, "subject" character varying NULL, "parts" jsonb NOT NULL, "metadata_url" character varying NULL, "metadata_attributes" jsonb NULL, "metadata_created_at" timestamptz NULL, "created_at" timestamptz NOT NULL, "ingested_at" timestamptz NOT NULL, "content_hash" character varying NOT NULL, "pending" boolean NOT NULL DEFAULT true, "processed_at" timestamptz NULL, "impact" character varying NOT NULL DEFAULT '', PRIMARY KEY ("id"));
-- Create index "conversation_organization_id_external_id" to table: "conversations"
CREATE UNIQUE INDEX "conversation_organization_id_external_id" ON "conversations" ("organization_id", "external_id");
-- Create index "conversation_organization_id_pending" to table: "conversations"
CREATE INDEX "conversation_organization_id_pending" ON "conversations" ("organization_id", "pending");
-- Create index "conversation_organization_id_source" to table: "conversations"
CREATE INDEX "conversation_organization_id_source" ON "conversations" ("organization_id", "source");
-- Create "conversation_corpus" table
CREATE TABLE "conversation_corpus" ("id" character varying NOT NULL, "documents" bigint NOT NULL DEFAULT 0, "df" jsonb NOT NULL, "next_cluster" bigint NOT NULL DEFAULT 1, "updated_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- Create "issues_clusters" table
CREATE TABLE "issues_clusters" ("id" character varying NOT NULL, "organization_id" character varying NOT NULL, "seq" bigint NOT NULL, "label" character varying NOT NULL, "icon" character varying NOT NULL, "summary" text NOT NULL, "muted" boolean NOT NULL DEFAULT false, "impact" character varying NOT NULL DEFAULT 'low', "key_terms" jsonb NOT NULL, "centroid" jsonb NOT NULL, "forms" jsonb NOT NULL, "examples" jsonb NOT NULL, "issue_count" bigint NOT NULL DEFAULT 0, "conversation_count" bigint NOT NULL DEFAULT 0, "sources" jsonb NOT NULL, "impacts" jsonb NOT NULL, "weeks" jsonb NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- Create index "issuescluster_organization_id_seq" to table: "issues_clusters"
CREATE UNIQUE INDEX "issuescluster_organization_id_seq" ON "issues_clusters" ("organization_id", "seq");
-- Create index "issuescluster_organization_id_updated_at" to table: "issues_clusters"
CREATE INDEX "issuescluster_organization_id_updated_at" ON "issues_clusters" ("organization_id", "updated_at");
-- Create "conversation_issues" table
CREATE TABLE "conversation_issues" ("id" character varying NOT NULL, "organization_id" character varying NOT NULL, "ordinal" bigint NOT NULL, "title" character varying NOT NULL, "details" text NOT NULL, "excerpt" text NOT NULL, "impact" character varying NOT NULL, "signals" jsonb NOT NULL, "terms" jsonb NOT NULL, "forms" jsonb NOT NULL, "source" character varying NOT NULL, "created_at" timestamptz NOT NULL, "ingested_at" timestamptz NOT NULL, "conversation_id" character varying NOT NULL, "cluster_id" character varying NULL, PRIMARY KEY ("id"), CONSTRAINT "conversation_issues_conversations_issues" FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, CONSTRAINT "conversation_issues_issues_clusters_issues" FOREIGN KEY ("cluster_id") REFERENCES "issues_clusters" ("id") ON UPDATE NO ACTION ON DELETE SET NULL);
-- Create index "conversationissue_cluster_id_created_at" to table: "conversation_issues"
CREATE INDEX "conversationissue_cluster_id_created_at" ON "conversation_issues" ("cluster_id", "created_at");
-- Create index "conversationissue_conversation_id_ordinal" to table: "conversation_issues"
CREATE INDEX "conversationissue_conversation_id_ordinal" ON "conversation_issues" ("conversation_id", "ordinal");
-- Create index "conversationissue_organization_id_created_at" to table: "conversation_issues"
CREATE INDEX "conversationissue_organization_id_created_at" ON "conversation_issues" ("organization_id", "created_at");
-- Create "translations" table
CREATE TABLE "translations" ("id" character varying NOT NULL, "organization_id" character varying NOT NULL, "source_space_id" character varying NOT NULL, "source_language" character varying NOT NULL, "language" character varying NOT NULL, "instructions" text NULL, "status" character varying NOT NULL DEFAULT 'pending', "result_space_id" character varying NULL, "result_revision_id" character varying NULL, "applied_instructions" character varying NOT NULL DEFAULT '', "runs" bigint NOT NULL DEFAULT 0, "total_words" bigint NOT NULL DEFAULT 0, "total_pages" bigint NOT NULL DEFAULT 0, "total_duration_ms" bigint NOT NULL DEFAULT 0, "latest_duration_ms" bigint NOT NULL DEFAULT 0, "latest_pages" bigint NOT NULL DEFAULT 0, "latest_words" bigint NOT NULL DEFAULT 0, "created_by" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- Create index "translation_organization_id_created_at" to table: "translations"
CREATE INDEX "translation_organization_id_created_at" ON "translations" ("organization_id", "created_at");
-- Create index "translation_result_space_id" to table: "translations"
CREATE INDEX "translation_result_space_id" ON "translations" ("result_space_id");
-- Create index "translation_source_space_id" to table: "translations"
CREATE INDEX "translation_source_space_id" ON "translations" ("source_space_id");
-- Create "translation_files" table
CREATE TABLE "translation_files" ("id" bigint NOT NULL GENERATED BY DEFAULT AS IDENTITY, "source_file_id" character varying NOT NULL, "result_file_id" character varying NOT NULL, "source_version" character varying NOT NULL DEFAULT '', "translation_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "translation_files_translations_files" FOREIGN KEY ("translation_id") REFERENCES "translations" ("id") ON UPDATE NO ACTION ON DELETE CASCADE);
-- Create index "translationfile_translation_id_source_file_id" to table: "translation_files"
CREATE UNIQUE INDEX "translationfile_translation_id_source_file_id" ON "translation_files" ("translation_id", "source_file_id");
-- Create "translation_pages" table
CREATE TABLE "translation_pages" ("id" bigint NOT NULL GENERATED BY DEFAULT AS IDENTITY, "source_page_id" character varying NOT NULL, "result_page_id" character varying NOT NULL, "source_version" character varying NOT NULL DEFAULT '', "text_hash" character varying NOT NULL DEFAULT '', "translation_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "translation_pages_translations_pages" FOREIGN KEY ("translation_id") REFERENCES "translations" ("id") ON UPDATE NO ACTION ON DELETE CASCADE);
-- Create index "translationpage_translation_id_source_page_id" to table: "translation_pages"
CREATE UNIQUE INDEX "translationpage_translation_id_source_page_id" ON "translation_pages" ("translation_id", "source_page_id");

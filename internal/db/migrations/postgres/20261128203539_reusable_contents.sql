-- Create "reusable_content_versions" table
CREATE TABLE "reusable_content_versions" ("id" character varying NOT NULL, "space_id" character varying NOT NULL, "reusable_content_id" character varying NOT NULL, "title" character varying NOT NULL, "document_id" character varying NOT NULL, "refs" jsonb NULL, "git" jsonb NULL, "created_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- Create index "reusablecontentversion_document_id" to table: "reusable_content_versions"
CREATE INDEX "reusablecontentversion_document_id" ON "reusable_content_versions" ("document_id");
-- Create index "reusablecontentversion_space_id" to table: "reusable_content_versions"
CREATE INDEX "reusablecontentversion_space_id" ON "reusable_content_versions" ("space_id");

-- Test-only: what make migration wrote after ent/schema's Organization got a
-- "motto" field (default "") and an optional "plan", with a data step added by
-- hand. The upgrade tests apply it after the real baseline.
-- Modify "organizations" table
ALTER TABLE "organizations" ALTER COLUMN "plan" DROP NOT NULL, ADD COLUMN "motto" character varying NOT NULL DEFAULT '';

-- Give the organizations a motto
UPDATE "organizations" SET "motto" = 'Docs for everyone' WHERE "title" = 'Acme';

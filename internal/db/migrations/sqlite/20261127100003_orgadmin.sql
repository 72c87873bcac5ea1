-- Add column "organization_id" to table: "api_tokens"
ALTER TABLE `api_tokens` ADD COLUMN `organization_id` text NULL;
-- Add column "logo_url" to table: "organizations"
ALTER TABLE `organizations` ADD COLUMN `logo_url` text NULL;
-- Add column "default_content_site_id" to table: "organizations"
ALTER TABLE `organizations` ADD COLUMN `default_content_site_id` text NULL;
-- Add column "email_verified_at" to table: "users"
ALTER TABLE `users` ADD COLUMN `email_verified_at` datetime NULL;
-- Create "agent_instructions" table
CREATE TABLE `agent_instructions` (`id` text NOT NULL, `document` text NOT NULL, `updated_at` datetime NOT NULL, `updated_by` text NOT NULL, PRIMARY KEY (`id`));
-- Create "content_permissions" table
CREATE TABLE `content_permissions` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `organization_id` text NOT NULL, `level` text NOT NULL, `created_at` datetime NOT NULL, `collection_id` text NULL, `space_id` text NULL, `team_id` text NULL, `user_id` text NULL, CONSTRAINT `content_permissions_collections_permissions` FOREIGN KEY (`collection_id`) REFERENCES `collections` (`id`) ON DELETE CASCADE, CONSTRAINT `content_permissions_spaces_permissions` FOREIGN KEY (`space_id`) REFERENCES `spaces` (`id`) ON DELETE CASCADE, CONSTRAINT `content_permissions_teams_permissions` FOREIGN KEY (`team_id`) REFERENCES `teams` (`id`) ON DELETE CASCADE, CONSTRAINT `content_permissions_users_content_permissions` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`) ON DELETE CASCADE);
-- Create index "contentpermission_space_id_user_id" to table: "content_permissions"
CREATE UNIQUE INDEX `contentpermission_space_id_user_id` ON `content_permissions` (`space_id`, `user_id`);
-- Create index "contentpermission_space_id_team_id" to table: "content_permissions"
CREATE UNIQUE INDEX `contentpermission_space_id_team_id` ON `content_permissions` (`space_id`, `team_id`);
-- Create index "contentpermission_collection_id_user_id" to table: "content_permissions"
CREATE UNIQUE INDEX `contentpermission_collection_id_user_id` ON `content_permissions` (`collection_id`, `user_id`);
-- Create index "contentpermission_collection_id_team_id" to table: "content_permissions"
CREATE UNIQUE INDEX `contentpermission_collection_id_team_id` ON `content_permissions` (`collection_id`, `team_id`);
-- Create index "contentpermission_user_id" to table: "content_permissions"
CREATE INDEX `contentpermission_user_id` ON `content_permissions` (`user_id`);
-- Create index "contentpermission_team_id" to table: "content_permissions"
CREATE INDEX `contentpermission_team_id` ON `content_permissions` (`team_id`);
-- Create index "contentpermission_organization_id" to table: "content_permissions"
CREATE INDEX `contentpermission_organization_id` ON `content_permissions` (`organization_id`);
-- Create "invite_links" table
CREATE TABLE `invite_links` (`id` text NOT NULL, `kind` text NOT NULL, `role` text NULL, `created_by` text NOT NULL DEFAULT (''), `created_at` datetime NOT NULL, `collection_id` text NULL, `organization_id` text NOT NULL, `space_id` text NULL, PRIMARY KEY (`id`), CONSTRAINT `invite_links_collections_invite_links` FOREIGN KEY (`collection_id`) REFERENCES `collections` (`id`) ON DELETE CASCADE, CONSTRAINT `invite_links_organizations_invite_link_list` FOREIGN KEY (`organization_id`) REFERENCES `organizations` (`id`) ON DELETE CASCADE, CONSTRAINT `invite_links_spaces_invite_links` FOREIGN KEY (`space_id`) REFERENCES `spaces` (`id`) ON DELETE CASCADE);
-- Create index "invitelink_organization_id_created_at" to table: "invite_links"
CREATE INDEX `invitelink_organization_id_created_at` ON `invite_links` (`organization_id`, `created_at`);
-- Create "saml_providers" table
CREATE TABLE `saml_providers` (`id` text NOT NULL, `label` text NOT NULL, `entity_id` text NOT NULL DEFAULT (''), `sso_url` text NOT NULL DEFAULT (''), `certificate` text NOT NULL DEFAULT (''), `default_role` text NULL, `created_at` datetime NOT NULL, `organization_id` text NOT NULL, `default_team_id` text NULL, PRIMARY KEY (`id`), CONSTRAINT `saml_providers_organizations_saml_providers` FOREIGN KEY (`organization_id`) REFERENCES `organizations` (`id`) ON DELETE CASCADE, CONSTRAINT `saml_providers_teams_saml_providers` FOREIGN KEY (`default_team_id`) REFERENCES `teams` (`id`) ON DELETE SET NULL);
-- Create index "samlprovider_organization_id_created_at" to table: "saml_providers"
CREATE INDEX `samlprovider_organization_id_created_at` ON `saml_providers` (`organization_id`, `created_at`);
-- Create "saml_requests" table
CREATE TABLE `saml_requests` (`id` text NOT NULL, `created_at` datetime NOT NULL, `expires_at` datetime NOT NULL, `provider_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `saml_requests_saml_providers_requests` FOREIGN KEY (`provider_id`) REFERENCES `saml_providers` (`id`) ON DELETE CASCADE);
-- Create index "samlrequest_expires_at" to table: "saml_requests"
CREATE INDEX `samlrequest_expires_at` ON `saml_requests` (`expires_at`);
-- Create "teams" table
CREATE TABLE `teams` (`id` text NOT NULL, `title` text NOT NULL, `created_at` datetime NOT NULL, `organization_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `teams_organizations_teams` FOREIGN KEY (`organization_id`) REFERENCES `organizations` (`id`) ON DELETE CASCADE);
-- Create index "team_organization_id_created_at" to table: "teams"
CREATE INDEX `team_organization_id_created_at` ON `teams` (`organization_id`, `created_at`);
-- Create "team_members" table
CREATE TABLE `team_members` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `role` text NOT NULL DEFAULT ('member'), `created_at` datetime NOT NULL, `team_id` text NOT NULL, `user_id` text NOT NULL, CONSTRAINT `team_members_teams_memberships` FOREIGN KEY (`team_id`) REFERENCES `teams` (`id`) ON DELETE CASCADE, CONSTRAINT `team_members_users_team_memberships` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`) ON DELETE CASCADE);
-- Create index "teammember_team_id_user_id" to table: "team_members"
CREATE UNIQUE INDEX `teammember_team_id_user_id` ON `team_members` (`team_id`, `user_id`);
-- Create index "teammember_user_id" to table: "team_members"
CREATE INDEX `teammember_user_id` ON `team_members` (`user_id`);

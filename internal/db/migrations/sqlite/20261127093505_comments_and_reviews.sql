-- Disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- Create "new_change_requests" table
CREATE TABLE `new_change_requests` (`id` text NOT NULL, `number` integer NOT NULL, `subject` text NOT NULL DEFAULT (''), `description` text NULL, `status` text NOT NULL DEFAULT ('draft'), `created_by` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `revision_initial` text NOT NULL, `revision_id` text NOT NULL, `revision_merged_ancestor` text NULL, `revision_merged` text NULL, `merged_at` datetime NULL, `contributors` json NULL, `conversations_issues_cluster` text NULL, `comments` integer NOT NULL DEFAULT (0), `space_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `change_requests_spaces_change_request_list` FOREIGN KEY (`space_id`) REFERENCES `spaces` (`id`) ON DELETE CASCADE);
-- Copy rows from old table "change_requests" to new temporary table "new_change_requests"
INSERT INTO `new_change_requests` (`id`, `number`, `subject`, `description`, `status`, `created_by`, `created_at`, `updated_at`, `revision_initial`, `revision_id`, `revision_merged_ancestor`, `revision_merged`, `merged_at`, `contributors`, `conversations_issues_cluster`, `space_id`) SELECT `id`, `number`, `subject`, `description`, `status`, `created_by`, `created_at`, `updated_at`, `revision_initial`, `revision_id`, `revision_merged_ancestor`, `revision_merged`, `merged_at`, `contributors`, `conversations_issues_cluster`, `space_id` FROM `change_requests`;
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
-- Create "change_request_reviews" table
CREATE TABLE `change_request_reviews` (`id` text NOT NULL, `space_id` text NOT NULL, `reviewer` text NOT NULL, `requested_by` text NULL, `status` text NOT NULL, `outdated` bool NOT NULL DEFAULT (false), `revision_id` text NOT NULL, `comment_id` text NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `change_request_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `change_request_reviews_change_requests_reviews` FOREIGN KEY (`change_request_id`) REFERENCES `change_requests` (`id`) ON DELETE CASCADE);
-- Create index "changerequestreview_change_request_id_reviewer" to table: "change_request_reviews"
CREATE INDEX `changerequestreview_change_request_id_reviewer` ON `change_request_reviews` (`change_request_id`, `reviewer`);
-- Create "change_request_reviewers" table
CREATE TABLE `change_request_reviewers` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `user_id` text NOT NULL, `requested_by` text NOT NULL, `revision_id` text NOT NULL, `created_at` datetime NOT NULL, `change_request_id` text NOT NULL, CONSTRAINT `change_request_reviewers_change_requests_requested_reviewers` FOREIGN KEY (`change_request_id`) REFERENCES `change_requests` (`id`) ON DELETE CASCADE);
-- Create index "changerequestreviewer_change_request_id_user_id" to table: "change_request_reviewers"
CREATE UNIQUE INDEX `changerequestreviewer_change_request_id_user_id` ON `change_request_reviewers` (`change_request_id`, `user_id`);
-- Create index "changerequestreviewer_user_id" to table: "change_request_reviewers"
CREATE INDEX `changerequestreviewer_user_id` ON `change_request_reviewers` (`user_id`);
-- Create "comments" table
CREATE TABLE `comments` (`id` text NOT NULL, `review_id` text NULL, `posted_by` text NOT NULL, `posted_at` datetime NOT NULL, `edited_at` datetime NULL, `body` text NOT NULL, `revision_id` text NOT NULL, `page_id` text NULL, `node_id` text NULL, `table_record` text NULL, `table_definition` text NULL, `status` text NOT NULL DEFAULT ('open'), `resolved_at` datetime NULL, `resolved_by` text NULL, `replies` integer NOT NULL DEFAULT (0), `change_request_id` text NULL, `space_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `comments_change_requests_comment_list` FOREIGN KEY (`change_request_id`) REFERENCES `change_requests` (`id`) ON DELETE CASCADE, CONSTRAINT `comments_spaces_comment_list` FOREIGN KEY (`space_id`) REFERENCES `spaces` (`id`) ON DELETE CASCADE);
-- Create index "comment_space_id_change_request_id_posted_at" to table: "comments"
CREATE INDEX `comment_space_id_change_request_id_posted_at` ON `comments` (`space_id`, `change_request_id`, `posted_at`);
-- Create index "comment_change_request_id_posted_at" to table: "comments"
CREATE INDEX `comment_change_request_id_posted_at` ON `comments` (`change_request_id`, `posted_at`);
-- Create index "comment_review_id" to table: "comments"
CREATE INDEX `comment_review_id` ON `comments` (`review_id`);
-- Create "comment_reactions" table
CREATE TABLE `comment_reactions` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `user_id` text NOT NULL, `emoji` text NOT NULL, `created_at` datetime NOT NULL, `comment_id` text NULL, `reply_id` text NULL, CONSTRAINT `comment_reactions_comments_reactions` FOREIGN KEY (`comment_id`) REFERENCES `comments` (`id`) ON DELETE CASCADE, CONSTRAINT `comment_reactions_comment_replies_reactions` FOREIGN KEY (`reply_id`) REFERENCES `comment_replies` (`id`) ON DELETE CASCADE);
-- Create index "commentreaction_comment_id_user_id_emoji" to table: "comment_reactions"
CREATE UNIQUE INDEX `commentreaction_comment_id_user_id_emoji` ON `comment_reactions` (`comment_id`, `user_id`, `emoji`);
-- Create index "commentreaction_reply_id_user_id_emoji" to table: "comment_reactions"
CREATE UNIQUE INDEX `commentreaction_reply_id_user_id_emoji` ON `comment_reactions` (`reply_id`, `user_id`, `emoji`);
-- Create "comment_replies" table
CREATE TABLE `comment_replies` (`id` text NOT NULL, `space_id` text NOT NULL, `change_request_id` text NULL, `posted_by` text NOT NULL, `posted_at` datetime NOT NULL, `edited_at` datetime NULL, `body` text NOT NULL, `comment_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `comment_replies_comments_reply_list` FOREIGN KEY (`comment_id`) REFERENCES `comments` (`id`) ON DELETE CASCADE);
-- Create index "commentreply_comment_id_posted_at" to table: "comment_replies"
CREATE INDEX `commentreply_comment_id_posted_at` ON `comment_replies` (`comment_id`, `posted_at`);
-- Create index "commentreply_space_id_change_request_id_posted_by" to table: "comment_replies"
CREATE INDEX `commentreply_space_id_change_request_id_posted_by` ON `comment_replies` (`space_id`, `change_request_id`, `posted_by`);
-- Enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;

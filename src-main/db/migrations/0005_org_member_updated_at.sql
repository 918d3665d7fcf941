-- SQLite cannot add a NOT NULL column without a default, so the table is rebuilt; a member's
-- updated_at starts at the time it was added.
CREATE TABLE `__new_org_members` (
	`org_id` text NOT NULL,
	`user_id` text NOT NULL,
	`role` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`org_id`, `user_id`),
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_org_members` (`org_id`, `user_id`, `role`, `created_at`, `updated_at`)
SELECT `org_id`, `user_id`, `role`, `created_at`, `created_at` FROM `org_members`;
--> statement-breakpoint
DROP TABLE `org_members`;
--> statement-breakpoint
ALTER TABLE `__new_org_members` RENAME TO `org_members`;
--> statement-breakpoint
CREATE INDEX `org_members_user` ON `org_members` (`user_id`);
--> statement-breakpoint
CREATE INDEX `org_members_org_created` ON `org_members` (`org_id`,`created_at`,`user_id`);

CREATE TABLE `email_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`shipment_id` text NOT NULL,
	`kind` text NOT NULL,
	`to_address` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text,
	`last_error` text,
	`message_id` text,
	`sent_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `email_messages_shipment_kind` ON `email_messages` (`shipment_id`,`kind`);--> statement-breakpoint
CREATE INDEX `email_messages_org_created` ON `email_messages` (`org_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `email_messages_due` ON `email_messages` (`next_attempt_at`) WHERE status = 'queued';--> statement-breakpoint
CREATE TABLE `email_settings` (
	`org_id` text PRIMARY KEY NOT NULL,
	`host` text NOT NULL,
	`port` integer NOT NULL,
	`secure` integer NOT NULL,
	`username` text,
	`password_sealed` text,
	`from_address` text NOT NULL,
	`templates` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `order_channels` ADD `last_synced_at` text;--> statement-breakpoint
ALTER TABLE `order_channels` ADD `next_sync_at` text;--> statement-breakpoint
ALTER TABLE `order_channels` ADD `last_sync_error` text;--> statement-breakpoint
ALTER TABLE `order_channels` ADD `sync_started_at` text;--> statement-breakpoint
ALTER TABLE `order_channels` ADD `sync_cursor` text;--> statement-breakpoint
CREATE INDEX `order_channels_sync_due` ON `order_channels` (`next_sync_at`) WHERE next_sync_at IS NOT NULL AND deleted_at IS NULL;--> statement-breakpoint
ALTER TABLE `orders` ADD `shop_change` text;--> statement-breakpoint
ALTER TABLE `orgs` ADD `language` text DEFAULT 'en' NOT NULL;
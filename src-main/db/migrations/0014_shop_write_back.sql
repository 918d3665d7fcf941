CREATE TABLE `shop_fulfillments` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`order_id` text NOT NULL,
	`shipment_id` text NOT NULL,
	`order_channel_id` text NOT NULL,
	`tracking_number` text,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text,
	`last_error` text,
	`remote_id` text,
	`sent_tracking_number` text,
	`sent_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`order_channel_id`) REFERENCES `order_channels`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `shop_fulfillments_shipment` ON `shop_fulfillments` (`shipment_id`);--> statement-breakpoint
CREATE INDEX `shop_fulfillments_order` ON `shop_fulfillments` (`order_id`);--> statement-breakpoint
CREATE INDEX `shop_fulfillments_due` ON `shop_fulfillments` (`next_attempt_at`) WHERE status = 'queued';--> statement-breakpoint
ALTER TABLE `order_lines` ADD `external_line_id` text;
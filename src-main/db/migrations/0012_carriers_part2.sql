CREATE TABLE `close_out_shipments` (
	`shipment_id` text PRIMARY KEY NOT NULL,
	`close_out_id` text NOT NULL,
	`position` integer NOT NULL,
	`reference` text NOT NULL,
	`tracking_number` text NOT NULL,
	`parcel_count` integer NOT NULL,
	`weight` real NOT NULL,
	FOREIGN KEY (`close_out_id`) REFERENCES `close_outs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `close_out_shipments_close_out` ON `close_out_shipments` (`close_out_id`,`position`);--> statement-breakpoint
CREATE TABLE `close_outs` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`carrier_id` text NOT NULL,
	`sender_address_id` text,
	`status` text NOT NULL,
	`shipment_count` integer NOT NULL,
	`parcel_count` integer NOT NULL,
	`weight` real NOT NULL,
	`carrier_reference` text,
	`document` blob,
	`carrier_document` blob,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`carrier_id`) REFERENCES `carriers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `close_outs_org_created` ON `close_outs` (`org_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `daily_pickups` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`carrier_id` text NOT NULL,
	`sender_address_id` text NOT NULL,
	`from_time` text NOT NULL,
	`to_time` text NOT NULL,
	`parcel_count` integer,
	`weight` real,
	`instruction` text,
	`weekdays` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`last_booked_date` text,
	`deleted_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`carrier_id`) REFERENCES `carriers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`sender_address_id`) REFERENCES `sender_addresses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `daily_pickups_org` ON `daily_pickups` (`org_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `pickups` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`carrier_id` text NOT NULL,
	`sender_address_id` text NOT NULL,
	`date` text NOT NULL,
	`from_time` text NOT NULL,
	`to_time` text NOT NULL,
	`parcel_count` integer,
	`weight` real,
	`instruction` text,
	`status` text NOT NULL,
	`confirmation_number` text,
	`carrier_booking` text,
	`error` text,
	`daily_pickup_id` text,
	`cancelled_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`carrier_id`) REFERENCES `carriers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`sender_address_id`) REFERENCES `sender_addresses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `pickups_org_created` ON `pickups` (`org_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `pickups_org_date` ON `pickups` (`org_id`,`date`);--> statement-breakpoint
CREATE UNIQUE INDEX `pickups_daily_date` ON `pickups` (`daily_pickup_id`,`date`) WHERE daily_pickup_id IS NOT NULL;--> statement-breakpoint
ALTER TABLE `orgs` ADD `eori_number` text;--> statement-breakpoint
CREATE INDEX `shipments_org_carrier_status_booked` ON `shipments` (`org_id`,`carrier_id`,`status`,`booked_at`);
CREATE TABLE `tracking_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`shipment_id` text NOT NULL,
	`at` text NOT NULL,
	`code` text NOT NULL,
	`description` text NOT NULL,
	`location` text,
	FOREIGN KEY (`shipment_id`) REFERENCES `shipments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tracking_events_shipment_event` ON `tracking_events` (`shipment_id`,`at`,`code`,`description`);--> statement-breakpoint
ALTER TABLE `carriers` ADD `products` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `service_point_id` text;--> statement-breakpoint
ALTER TABLE `parcels` ADD `tracking_number` text;--> statement-breakpoint
ALTER TABLE `parcels` ADD `parcel_number` text;--> statement-breakpoint
ALTER TABLE `shipments` ADD `booking_outcome_unknown_at` text;--> statement-breakpoint
ALTER TABLE `shipments` ADD `carrier_booking` text;--> statement-breakpoint
ALTER TABLE `shipments` ADD `booked_at` text;--> statement-breakpoint
ALTER TABLE `shipments` ADD `tracking_status` text;--> statement-breakpoint
ALTER TABLE `shipments` ADD `tracking_checked_at` text;--> statement-breakpoint
ALTER TABLE `shipments` ADD `tracking_due_at` text;--> statement-breakpoint
CREATE INDEX `shipments_tracking_due` ON `shipments` (`tracking_due_at`) WHERE tracking_due_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX `shipments_org_tracking_status` ON `shipments` (`org_id`,`tracking_status`,`created_at`,`id`);--> statement-breakpoint
-- Shipments booked before tracking existed: their carrier has said nothing yet.
UPDATE `shipments` SET `tracking_status` = 'pending', `booked_at` = `updated_at` WHERE `tracking_number` IS NOT NULL;

ALTER TABLE `order_lines` ADD `location` text;--> statement-breakpoint
ALTER TABLE `orgs` ADD `return_instructions` text;--> statement-breakpoint
ALTER TABLE `orgs` ADD `onboarding` text;--> statement-breakpoint
CREATE INDEX `parcels_tracking_number` ON `parcels` (`tracking_number`) WHERE tracking_number IS NOT NULL;--> statement-breakpoint
CREATE INDEX `parcels_parcel_number` ON `parcels` (`parcel_number`) WHERE parcel_number IS NOT NULL;--> statement-breakpoint
CREATE INDEX `shipments_org_tracking_number` ON `shipments` (`org_id`,`tracking_number`);
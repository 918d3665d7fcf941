ALTER TABLE `shipments` ADD `booking_started_at` text;--> statement-breakpoint
-- Before this marker, every shipment in processing at start-up was taken for an interrupted booking;
-- those already there keep that reading.
UPDATE `shipments` SET `booking_started_at` = `updated_at` WHERE `status` = 'processing';

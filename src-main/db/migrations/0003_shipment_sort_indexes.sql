CREATE INDEX `shipments_org_reference` ON `shipments` (`org_id`,`reference`);--> statement-breakpoint
CREATE INDEX `shipments_org_updated` ON `shipments` (`org_id`,`updated_at`);
CREATE TABLE `shipment_hour_counts` (
	`org_id` text NOT NULL,
	`bucket` text NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`org_id`, `bucket`)
);
--> statement-breakpoint
-- Keep shipment_hour_counts equal to
-- SELECT org_id, substr(created_at, 1, 13), count(*) FROM shipments GROUP BY 1, 2 (issue 23: deep
-- pages of the newest-first list seek to the hour their first row is in). Hours left at 0 by
-- deletes stay; the walk passes over them.
INSERT INTO `shipment_hour_counts` (`org_id`, `bucket`, `n`)
SELECT `org_id`, substr(`created_at`, 1, 13), count(*) FROM `shipments` GROUP BY `org_id`, substr(`created_at`, 1, 13);
--> statement-breakpoint
CREATE TRIGGER `shipments_hour_count_insert` AFTER INSERT ON `shipments` BEGIN
  INSERT INTO `shipment_hour_counts` (`org_id`, `bucket`, `n`) VALUES (NEW.`org_id`, substr(NEW.`created_at`, 1, 13), 1)
  ON CONFLICT (`org_id`, `bucket`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `shipments_hour_count_delete` AFTER DELETE ON `shipments` BEGIN
  UPDATE `shipment_hour_counts` SET `n` = `n` - 1 WHERE `org_id` = OLD.`org_id` AND `bucket` = substr(OLD.`created_at`, 1, 13);
END;
--> statement-breakpoint
CREATE TRIGGER `shipments_hour_count_move` AFTER UPDATE OF `created_at`, `org_id` ON `shipments`
WHEN OLD.`created_at` IS NOT NEW.`created_at` OR OLD.`org_id` IS NOT NEW.`org_id` BEGIN
  UPDATE `shipment_hour_counts` SET `n` = `n` - 1 WHERE `org_id` = OLD.`org_id` AND `bucket` = substr(OLD.`created_at`, 1, 13);
  INSERT INTO `shipment_hour_counts` (`org_id`, `bucket`, `n`) VALUES (NEW.`org_id`, substr(NEW.`created_at`, 1, 13), 1)
  ON CONFLICT (`org_id`, `bucket`) DO UPDATE SET `n` = `n` + 1;
END;

-- Keep shipment_counts equal to SELECT org_id, status, count(*) FROM shipments GROUP BY 1, 2.
INSERT INTO `shipment_counts` (`org_id`, `status`, `n`)
SELECT `org_id`, `status`, count(*) FROM `shipments` GROUP BY `org_id`, `status`;
--> statement-breakpoint
CREATE TRIGGER `shipments_count_insert` AFTER INSERT ON `shipments` BEGIN
  INSERT OR IGNORE INTO `shipment_counts` (`org_id`, `status`, `n`) VALUES (NEW.`org_id`, NEW.`status`, 0);
  UPDATE `shipment_counts` SET `n` = `n` + 1 WHERE `org_id` = NEW.`org_id` AND `status` = NEW.`status`;
END;
--> statement-breakpoint
CREATE TRIGGER `shipments_count_delete` AFTER DELETE ON `shipments` BEGIN
  UPDATE `shipment_counts` SET `n` = `n` - 1 WHERE `org_id` = OLD.`org_id` AND `status` = OLD.`status`;
END;
--> statement-breakpoint
CREATE TRIGGER `shipments_count_status` AFTER UPDATE OF `status`, `org_id` ON `shipments`
WHEN OLD.`status` IS NOT NEW.`status` OR OLD.`org_id` IS NOT NEW.`org_id` BEGIN
  UPDATE `shipment_counts` SET `n` = `n` - 1 WHERE `org_id` = OLD.`org_id` AND `status` = OLD.`status`;
  INSERT OR IGNORE INTO `shipment_counts` (`org_id`, `status`, `n`) VALUES (NEW.`org_id`, NEW.`status`, 0);
  UPDATE `shipment_counts` SET `n` = `n` + 1 WHERE `org_id` = NEW.`org_id` AND `status` = NEW.`status`;
END;

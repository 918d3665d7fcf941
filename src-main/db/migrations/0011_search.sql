CREATE TABLE `order_search` (
	`id` integer PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`body` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `order_search_order` ON `order_search` (`order_id`);--> statement-breakpoint
CREATE TABLE `shipment_search` (
	`id` integer PRIMARY KEY NOT NULL,
	`shipment_id` text NOT NULL,
	`body` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `shipment_search_shipment` ON `shipment_search` (`shipment_id`);--> statement-breakpoint
CREATE INDEX `shipment_parties_receiver_country` ON `shipment_parties` (`country_code`,`shipment_id`) WHERE type = 'receiver';--> statement-breakpoint
CREATE INDEX `shipments_org_carrier_created` ON `shipments` (`org_id`,`carrier_id`,`created_at`,`id`);--> statement-breakpoint
-- What "search" finds a shipment by (issue 20), one rule for every trigger below and the backfill:
-- reference, order number, receiver name, e-mail and postal code, tracking number, each parcel's
-- tracking and parcel number. Fields are kept apart by a line break, which no search contains. A
-- parcel not yet numbered adds nothing, so writing it leaves the text, and the index, as they were.
CREATE VIEW `shipment_search_text` AS
SELECT s.`id` AS `shipment_id`,
  s.`reference`
  || char(10) || coalesce((SELECT o.`order_number` FROM `orders` o WHERE o.`id` = s.`order_id`), '')
  || char(10) || coalesce((SELECT p.`name` || char(10) || coalesce(p.`email`, '') || char(10) || p.`postal_code` FROM `shipment_parties` p
                           WHERE p.`shipment_id` = s.`id` AND p.`type` = 'receiver' ORDER BY p.`position` LIMIT 1), '')
  || char(10) || coalesce(s.`tracking_number`, '')
  || coalesce((SELECT group_concat(char(10) || coalesce(pc.`tracking_number`, '') || char(10) || coalesce(pc.`parcel_number`, ''), '')
               FROM `parcels` pc WHERE pc.`shipment_id` = s.`id` AND (pc.`tracking_number` IS NOT NULL OR pc.`parcel_number` IS NOT NULL)), '') AS `body`
FROM `shipments` s;
--> statement-breakpoint
-- Orders: order number, customer name and e-mail, each line's SKU.
CREATE VIEW `order_search_text` AS
SELECT o.`id` AS `order_id`,
  o.`order_number` || char(10) || coalesce(o.`customer_name`, '') || char(10) || coalesce(o.`customer_email`, '')
  || coalesce((SELECT group_concat(char(10) || l.`sku`, '') FROM `order_lines` l WHERE l.`order_id` = o.`id` AND l.`sku` IS NOT NULL), '') AS `body`
FROM `orders` o;
--> statement-breakpoint
INSERT INTO `shipment_search` (`shipment_id`, `body`) SELECT `shipment_id`, `body` FROM `shipment_search_text`;
--> statement-breakpoint
INSERT INTO `order_search` (`order_id`, `body`) SELECT `order_id`, `body` FROM `order_search_text`;
--> statement-breakpoint
-- "Contains, ignoring case" of three characters or more is a lookup in a trigram index (SQLite's
-- FTS5, case folded for every alphabet); its text is the search table's, not a second copy.
CREATE VIRTUAL TABLE `shipment_search_fts` USING fts5(`body`, content = 'shipment_search', content_rowid = 'id', tokenize = 'trigram');
--> statement-breakpoint
INSERT INTO `shipment_search_fts` (`shipment_search_fts`) VALUES ('rebuild');
--> statement-breakpoint
-- One segment instead of the many a rebuild leaves: a search over a big history reads a third as much.
INSERT INTO `shipment_search_fts` (`shipment_search_fts`) VALUES ('optimize');
--> statement-breakpoint
CREATE VIRTUAL TABLE `order_search_fts` USING fts5(`body`, content = 'order_search', content_rowid = 'id', tokenize = 'trigram');
--> statement-breakpoint
INSERT INTO `order_search_fts` (`order_search_fts`) VALUES ('rebuild');
--> statement-breakpoint
INSERT INTO `order_search_fts` (`order_search_fts`) VALUES ('optimize');
--> statement-breakpoint
-- The index follows its table.
CREATE TRIGGER `shipment_search_fts_insert` AFTER INSERT ON `shipment_search` BEGIN
  INSERT INTO `shipment_search_fts` (`rowid`, `body`) VALUES (NEW.`id`, NEW.`body`);
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_search_fts_delete` AFTER DELETE ON `shipment_search` BEGIN
  INSERT INTO `shipment_search_fts` (`shipment_search_fts`, `rowid`, `body`) VALUES ('delete', OLD.`id`, OLD.`body`);
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_search_fts_update` AFTER UPDATE OF `body` ON `shipment_search` WHEN OLD.`body` IS NOT NEW.`body` BEGIN
  INSERT INTO `shipment_search_fts` (`shipment_search_fts`, `rowid`, `body`) VALUES ('delete', OLD.`id`, OLD.`body`);
  INSERT INTO `shipment_search_fts` (`rowid`, `body`) VALUES (NEW.`id`, NEW.`body`);
END;
--> statement-breakpoint
CREATE TRIGGER `order_search_fts_insert` AFTER INSERT ON `order_search` BEGIN
  INSERT INTO `order_search_fts` (`rowid`, `body`) VALUES (NEW.`id`, NEW.`body`);
END;
--> statement-breakpoint
CREATE TRIGGER `order_search_fts_delete` AFTER DELETE ON `order_search` BEGIN
  INSERT INTO `order_search_fts` (`order_search_fts`, `rowid`, `body`) VALUES ('delete', OLD.`id`, OLD.`body`);
END;
--> statement-breakpoint
CREATE TRIGGER `order_search_fts_update` AFTER UPDATE OF `body` ON `order_search` WHEN OLD.`body` IS NOT NEW.`body` BEGIN
  INSERT INTO `order_search_fts` (`order_search_fts`, `rowid`, `body`) VALUES ('delete', OLD.`id`, OLD.`body`);
  INSERT INTO `order_search_fts` (`rowid`, `body`) VALUES (NEW.`id`, NEW.`body`);
END;
--> statement-breakpoint
-- The search tables follow every write to what they hold, as shipment_counts does (0002). A row's
-- parts written after it (parties, parcels) refresh it; a refresh of a row already deleted is a no-op.
CREATE TRIGGER `shipment_search_shipment_insert` AFTER INSERT ON `shipments` BEGIN
  INSERT INTO `shipment_search` (`shipment_id`, `body`) SELECT `shipment_id`, `body` FROM `shipment_search_text` WHERE `shipment_id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_search_shipment_delete` AFTER DELETE ON `shipments` BEGIN
  DELETE FROM `shipment_search` WHERE `shipment_id` = OLD.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_search_shipment_update` AFTER UPDATE OF `reference`, `tracking_number`, `order_id` ON `shipments` BEGIN
  UPDATE `shipment_search` SET `body` = v.`body` FROM `shipment_search_text` v WHERE v.`shipment_id` = NEW.`id` AND `shipment_search`.`shipment_id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_search_party_insert` AFTER INSERT ON `shipment_parties` WHEN NEW.`type` = 'receiver' BEGIN
  UPDATE `shipment_search` SET `body` = v.`body` FROM `shipment_search_text` v WHERE v.`shipment_id` = NEW.`shipment_id` AND `shipment_search`.`shipment_id` = NEW.`shipment_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_search_party_update` AFTER UPDATE OF `name`, `email`, `postal_code`, `type`, `position`, `shipment_id` ON `shipment_parties`
WHEN OLD.`type` = 'receiver' OR NEW.`type` = 'receiver' BEGIN
  UPDATE `shipment_search` SET `body` = v.`body` FROM `shipment_search_text` v
  WHERE v.`shipment_id` = `shipment_search`.`shipment_id` AND `shipment_search`.`shipment_id` IN (OLD.`shipment_id`, NEW.`shipment_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_search_party_delete` AFTER DELETE ON `shipment_parties` WHEN OLD.`type` = 'receiver' BEGIN
  UPDATE `shipment_search` SET `body` = v.`body` FROM `shipment_search_text` v WHERE v.`shipment_id` = OLD.`shipment_id` AND `shipment_search`.`shipment_id` = OLD.`shipment_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_search_parcel_insert` AFTER INSERT ON `parcels` WHEN NEW.`tracking_number` IS NOT NULL OR NEW.`parcel_number` IS NOT NULL BEGIN
  UPDATE `shipment_search` SET `body` = v.`body` FROM `shipment_search_text` v WHERE v.`shipment_id` = NEW.`shipment_id` AND `shipment_search`.`shipment_id` = NEW.`shipment_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_search_parcel_update` AFTER UPDATE OF `tracking_number`, `parcel_number`, `position`, `shipment_id` ON `parcels` BEGIN
  UPDATE `shipment_search` SET `body` = v.`body` FROM `shipment_search_text` v
  WHERE v.`shipment_id` = `shipment_search`.`shipment_id` AND `shipment_search`.`shipment_id` IN (OLD.`shipment_id`, NEW.`shipment_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_search_parcel_delete` AFTER DELETE ON `parcels` WHEN OLD.`tracking_number` IS NOT NULL OR OLD.`parcel_number` IS NOT NULL BEGIN
  UPDATE `shipment_search` SET `body` = v.`body` FROM `shipment_search_text` v WHERE v.`shipment_id` = OLD.`shipment_id` AND `shipment_search`.`shipment_id` = OLD.`shipment_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_search_order_number` AFTER UPDATE OF `order_number` ON `orders` BEGIN
  UPDATE `shipment_search` SET `body` = v.`body` FROM `shipment_search_text` v
  WHERE v.`shipment_id` = `shipment_search`.`shipment_id` AND `shipment_search`.`shipment_id` IN (SELECT `id` FROM `shipments` WHERE `order_id` = NEW.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `order_search_order_insert` AFTER INSERT ON `orders` BEGIN
  INSERT INTO `order_search` (`order_id`, `body`) SELECT `order_id`, `body` FROM `order_search_text` WHERE `order_id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `order_search_order_delete` AFTER DELETE ON `orders` BEGIN
  DELETE FROM `order_search` WHERE `order_id` = OLD.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `order_search_order_update` AFTER UPDATE OF `order_number`, `customer_name`, `customer_email` ON `orders` BEGIN
  UPDATE `order_search` SET `body` = v.`body` FROM `order_search_text` v WHERE v.`order_id` = NEW.`id` AND `order_search`.`order_id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `order_search_line_insert` AFTER INSERT ON `order_lines` BEGIN
  UPDATE `order_search` SET `body` = v.`body` FROM `order_search_text` v WHERE v.`order_id` = NEW.`order_id` AND `order_search`.`order_id` = NEW.`order_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `order_search_line_update` AFTER UPDATE OF `sku`, `order_id` ON `order_lines` BEGIN
  UPDATE `order_search` SET `body` = v.`body` FROM `order_search_text` v
  WHERE v.`order_id` = `order_search`.`order_id` AND `order_search`.`order_id` IN (OLD.`order_id`, NEW.`order_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `order_search_line_delete` AFTER DELETE ON `order_lines` BEGIN
  UPDATE `order_search` SET `body` = v.`body` FROM `order_search_text` v WHERE v.`order_id` = OLD.`order_id` AND `order_search`.`order_id` = OLD.`order_id`;
END;

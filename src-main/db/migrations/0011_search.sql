CREATE TABLE `order_search` (
	`id` integer PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`source` text NOT NULL,
	`source_id` text NOT NULL,
	`body` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `order_search_source` ON `order_search` (`source`,`source_id`);--> statement-breakpoint
CREATE INDEX `order_search_order` ON `order_search` (`order_id`);--> statement-breakpoint
CREATE TABLE `shipment_search` (
	`id` integer PRIMARY KEY NOT NULL,
	`shipment_id` text NOT NULL,
	`source` text NOT NULL,
	`source_id` text NOT NULL,
	`body` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `shipment_search_source` ON `shipment_search` (`source`,`source_id`);--> statement-breakpoint
CREATE INDEX `shipment_search_shipment` ON `shipment_search` (`shipment_id`);--> statement-breakpoint
CREATE INDEX `shipment_parties_receiver_country` ON `shipment_parties` (`country_code`,`shipment_id`) WHERE type = 'receiver';--> statement-breakpoint
CREATE INDEX `shipments_org_carrier_created` ON `shipments` (`org_id`,`carrier_id`,`created_at`,`id`);--> statement-breakpoint
-- What "search" finds (issue 20), one view per source: the one rule the triggers and the backfill
-- share. Fields are kept apart by a line break, which no search contains.
CREATE VIEW `shipment_search_shipments` AS
SELECT s.`id` AS `shipment_id`, s.`id` AS `source_id`,
  s.`reference` || char(10) || coalesce((SELECT o.`order_number` FROM `orders` o WHERE o.`id` = s.`order_id`), '') || char(10) || coalesce(s.`tracking_number`, '') AS `body`
FROM `shipments` s;
--> statement-breakpoint
CREATE VIEW `shipment_search_receivers` AS
SELECT p.`shipment_id`, p.`id` AS `party_id`, CAST(p.`id` AS TEXT) AS `source_id`,
  p.`name` || char(10) || coalesce(p.`email`, '') || char(10) || p.`postal_code` AS `body`
FROM `shipment_parties` p WHERE p.`type` = 'receiver';
--> statement-breakpoint
-- A parcel not yet numbered has nothing to find.
CREATE VIEW `shipment_search_parcels` AS
SELECT pc.`shipment_id`, pc.`id` AS `source_id`, coalesce(pc.`tracking_number`, '') || char(10) || coalesce(pc.`parcel_number`, '') AS `body`
FROM `parcels` pc WHERE pc.`tracking_number` IS NOT NULL OR pc.`parcel_number` IS NOT NULL;
--> statement-breakpoint
CREATE VIEW `order_search_orders` AS
SELECT o.`id` AS `order_id`, o.`id` AS `source_id`,
  o.`order_number` || char(10) || coalesce(o.`customer_name`, '') || char(10) || coalesce(o.`customer_email`, '') AS `body`
FROM `orders` o;
--> statement-breakpoint
CREATE VIEW `order_search_lines` AS
SELECT l.`order_id`, l.`id` AS `source_id`, l.`sku` AS `body` FROM `order_lines` l WHERE l.`sku` IS NOT NULL;
--> statement-breakpoint
INSERT INTO `shipment_search` (`shipment_id`, `source`, `source_id`, `body`)
SELECT `shipment_id`, 'shipment', `source_id`, `body` FROM `shipment_search_shipments`
UNION ALL SELECT `shipment_id`, 'receiver', `source_id`, `body` FROM `shipment_search_receivers`
UNION ALL SELECT `shipment_id`, 'parcel', `source_id`, `body` FROM `shipment_search_parcels`;
--> statement-breakpoint
INSERT INTO `order_search` (`order_id`, `source`, `source_id`, `body`)
SELECT `order_id`, 'order', `source_id`, `body` FROM `order_search_orders`
UNION ALL SELECT `order_id`, 'line', `source_id`, `body` FROM `order_search_lines`;
--> statement-breakpoint
-- "Contains, ignoring case" of three characters or more is a lookup in a trigram index (SQLite's
-- FTS5, case folded for every alphabet); its text is the search table's, not a second copy.
CREATE VIRTUAL TABLE `shipment_search_fts` USING fts5(`body`, content = 'shipment_search', content_rowid = 'id', tokenize = 'trigram');
--> statement-breakpoint
INSERT INTO `shipment_search_fts` (`shipment_search_fts`) VALUES ('rebuild');
--> statement-breakpoint
-- One segment instead of the many a rebuild leaves: searches read less, and later writes do not
-- pay for merging them.
INSERT INTO `shipment_search_fts` (`shipment_search_fts`) VALUES ('optimize');
--> statement-breakpoint
CREATE VIRTUAL TABLE `order_search_fts` USING fts5(`body`, content = 'order_search', content_rowid = 'id', tokenize = 'trigram');
--> statement-breakpoint
INSERT INTO `order_search_fts` (`order_search_fts`) VALUES ('rebuild');
--> statement-breakpoint
INSERT INTO `order_search_fts` (`order_search_fts`) VALUES ('optimize');
--> statement-breakpoint
-- The index follows its table. Rows are only added and deleted (a change is a new row), so the
-- rows a create adds come in rising rowid order, which FTS5 takes without flushing mid-transaction.
CREATE TRIGGER `shipment_search_fts_insert` AFTER INSERT ON `shipment_search` BEGIN
  INSERT INTO `shipment_search_fts` (`rowid`, `body`) VALUES (NEW.`id`, NEW.`body`);
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_search_fts_delete` AFTER DELETE ON `shipment_search` BEGIN
  INSERT INTO `shipment_search_fts` (`shipment_search_fts`, `rowid`, `body`) VALUES ('delete', OLD.`id`, OLD.`body`);
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
-- The search tables follow every write to what they hold, as shipment_counts does (0002).
CREATE TRIGGER `shipment_search_shipment_insert` AFTER INSERT ON `shipments` BEGIN
  INSERT INTO `shipment_search` (`shipment_id`, `source`, `source_id`, `body`)
  SELECT `shipment_id`, 'shipment', `source_id`, `body` FROM `shipment_search_shipments` WHERE `source_id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_search_shipment_update` AFTER UPDATE OF `reference`, `tracking_number`, `order_id` ON `shipments` BEGIN
  DELETE FROM `shipment_search` WHERE `source` = 'shipment' AND `source_id` = OLD.`id`;
  INSERT INTO `shipment_search` (`shipment_id`, `source`, `source_id`, `body`)
  SELECT `shipment_id`, 'shipment', `source_id`, `body` FROM `shipment_search_shipments` WHERE `source_id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_search_shipment_delete` AFTER DELETE ON `shipments` BEGIN
  DELETE FROM `shipment_search` WHERE `shipment_id` = OLD.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_search_order_number` AFTER UPDATE OF `order_number` ON `orders` BEGIN
  DELETE FROM `shipment_search` WHERE `source` = 'shipment' AND `source_id` IN (SELECT `id` FROM `shipments` WHERE `order_id` = NEW.`id`);
  INSERT INTO `shipment_search` (`shipment_id`, `source`, `source_id`, `body`)
  SELECT `shipment_id`, 'shipment', `source_id`, `body` FROM `shipment_search_shipments` WHERE `source_id` IN (SELECT `id` FROM `shipments` WHERE `order_id` = NEW.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_search_party_insert` AFTER INSERT ON `shipment_parties` WHEN NEW.`type` = 'receiver' BEGIN
  INSERT INTO `shipment_search` (`shipment_id`, `source`, `source_id`, `body`)
  SELECT `shipment_id`, 'receiver', `source_id`, `body` FROM `shipment_search_receivers` WHERE `party_id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_search_party_update` AFTER UPDATE OF `name`, `email`, `postal_code`, `type`, `shipment_id` ON `shipment_parties`
WHEN OLD.`type` = 'receiver' OR NEW.`type` = 'receiver' BEGIN
  DELETE FROM `shipment_search` WHERE `source` = 'receiver' AND `source_id` = CAST(OLD.`id` AS TEXT);
  INSERT INTO `shipment_search` (`shipment_id`, `source`, `source_id`, `body`)
  SELECT `shipment_id`, 'receiver', `source_id`, `body` FROM `shipment_search_receivers` WHERE `party_id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_search_party_delete` AFTER DELETE ON `shipment_parties` WHEN OLD.`type` = 'receiver' BEGIN
  DELETE FROM `shipment_search` WHERE `source` = 'receiver' AND `source_id` = CAST(OLD.`id` AS TEXT);
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_search_parcel_insert` AFTER INSERT ON `parcels` WHEN NEW.`tracking_number` IS NOT NULL OR NEW.`parcel_number` IS NOT NULL BEGIN
  INSERT INTO `shipment_search` (`shipment_id`, `source`, `source_id`, `body`)
  SELECT `shipment_id`, 'parcel', `source_id`, `body` FROM `shipment_search_parcels` WHERE `source_id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_search_parcel_update` AFTER UPDATE OF `tracking_number`, `parcel_number`, `shipment_id` ON `parcels` BEGIN
  DELETE FROM `shipment_search` WHERE `source` = 'parcel' AND `source_id` = OLD.`id`;
  INSERT INTO `shipment_search` (`shipment_id`, `source`, `source_id`, `body`)
  SELECT `shipment_id`, 'parcel', `source_id`, `body` FROM `shipment_search_parcels` WHERE `source_id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_search_parcel_delete` AFTER DELETE ON `parcels` WHEN OLD.`tracking_number` IS NOT NULL OR OLD.`parcel_number` IS NOT NULL BEGIN
  DELETE FROM `shipment_search` WHERE `source` = 'parcel' AND `source_id` = OLD.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `order_search_order_insert` AFTER INSERT ON `orders` BEGIN
  INSERT INTO `order_search` (`order_id`, `source`, `source_id`, `body`)
  SELECT `order_id`, 'order', `source_id`, `body` FROM `order_search_orders` WHERE `source_id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `order_search_order_update` AFTER UPDATE OF `order_number`, `customer_name`, `customer_email` ON `orders` BEGIN
  DELETE FROM `order_search` WHERE `source` = 'order' AND `source_id` = OLD.`id`;
  INSERT INTO `order_search` (`order_id`, `source`, `source_id`, `body`)
  SELECT `order_id`, 'order', `source_id`, `body` FROM `order_search_orders` WHERE `source_id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `order_search_order_delete` AFTER DELETE ON `orders` BEGIN
  DELETE FROM `order_search` WHERE `order_id` = OLD.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `order_search_line_insert` AFTER INSERT ON `order_lines` WHEN NEW.`sku` IS NOT NULL BEGIN
  INSERT INTO `order_search` (`order_id`, `source`, `source_id`, `body`)
  SELECT `order_id`, 'line', `source_id`, `body` FROM `order_search_lines` WHERE `source_id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `order_search_line_update` AFTER UPDATE OF `sku`, `order_id` ON `order_lines` BEGIN
  DELETE FROM `order_search` WHERE `source` = 'line' AND `source_id` = OLD.`id`;
  INSERT INTO `order_search` (`order_id`, `source`, `source_id`, `body`)
  SELECT `order_id`, 'line', `source_id`, `body` FROM `order_search_lines` WHERE `source_id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `order_search_line_delete` AFTER DELETE ON `order_lines` WHEN OLD.`sku` IS NOT NULL BEGIN
  DELETE FROM `order_search` WHERE `source` = 'line' AND `source_id` = OLD.`id`;
END;

CREATE TABLE `order_search_docs` (
	`id` integer PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`body` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `order_search_docs_order_id_unique` ON `order_search_docs` (`order_id`);--> statement-breakpoint
CREATE TABLE `search_doc_deferrals` (
	`id` integer PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE `search_org_keys` (
	`key` integer PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`shipments_unordered` integer DEFAULT 0 NOT NULL,
	`orders_unordered` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `search_org_keys_org_id_unique` ON `search_org_keys` (`org_id`);--> statement-breakpoint
CREATE TABLE `shipment_search_docs` (
	`id` integer PRIMARY KEY NOT NULL,
	`shipment_id` text NOT NULL,
	`body` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `shipment_search_docs_shipment_id_unique` ON `shipment_search_docs` (`shipment_id`);
--> statement-breakpoint
-- Issue 23: a search counts and pages its matches in the trigram index alone. Each shipment (and
-- order) has one search document holding the text of all its rows in shipment_search (order_search),
-- so a match is a shipment, counted without a join. A document's id is its organization's key << 48
-- plus a number that rises in the list's creation order (created_at, id), so one organization's
-- documents are one rowid range of the index and the index hands out a page newest first.
-- A writer that holds a row in search_doc_deferrals writes its documents itself, once, after its
-- rows (a create: its receiver and parcels would otherwise rewrite the document it has just written).
-- Shipments: the old per-source index goes; a document per shipment takes its place.
DROP TRIGGER `shipment_search_fts_insert`;
--> statement-breakpoint
DROP TRIGGER `shipment_search_fts_delete`;
--> statement-breakpoint
DROP TABLE `shipment_search_fts`;
--> statement-breakpoint
INSERT OR IGNORE INTO `search_org_keys` (`org_id`) SELECT DISTINCT `org_id` FROM `shipments` ORDER BY `org_id`;
--> statement-breakpoint
-- Existing shipments, numbered in the list's creation order with room between them.
INSERT INTO `shipment_search_docs` (`id`, `shipment_id`, `body`)
SELECT (k.`key` << 48) + 1048576 * row_number() OVER (PARTITION BY o.`org_id` ORDER BY o.`created_at`, o.`id`), o.`id`, b.`body`
FROM `shipments` o
JOIN `search_org_keys` k ON k.`org_id` = o.`org_id`
JOIN (SELECT `shipment_id`, group_concat(`body`, char(10) ORDER BY `id`) AS `body` FROM `shipment_search` GROUP BY `shipment_id`) b ON b.`shipment_id` = o.`id`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `shipment_search_docs_fts` USING fts5(`body`, content = 'shipment_search_docs', content_rowid = 'id', tokenize = 'trigram');
--> statement-breakpoint
INSERT INTO `shipment_search_docs_fts` (`shipment_search_docs_fts`) VALUES ('rebuild');
--> statement-breakpoint
INSERT INTO `shipment_search_docs_fts` (`shipment_search_docs_fts`) VALUES ('optimize');
--> statement-breakpoint
CREATE TRIGGER `shipment_search_docs_fts_insert` AFTER INSERT ON `shipment_search_docs` BEGIN
  INSERT INTO `shipment_search_docs_fts` (`rowid`, `body`) VALUES (NEW.`id`, NEW.`body`);
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_search_docs_fts_update` AFTER UPDATE ON `shipment_search_docs` BEGIN
  INSERT INTO `shipment_search_docs_fts` (`shipment_search_docs_fts`, `rowid`, `body`) VALUES ('delete', OLD.`id`, OLD.`body`);
  INSERT INTO `shipment_search_docs_fts` (`rowid`, `body`) VALUES (NEW.`id`, NEW.`body`);
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_search_docs_fts_delete` AFTER DELETE ON `shipment_search_docs` BEGIN
  INSERT INTO `shipment_search_docs_fts` (`shipment_search_docs_fts`, `rowid`, `body`) VALUES ('delete', OLD.`id`, OLD.`body`);
END;
--> statement-breakpoint
-- The one rule that writes a shipment's document: inserting a shipment id here brings its document in
-- line with its rows in `shipment_search` (made, rewritten or removed).
CREATE VIEW `shipment_search_doc_writes` AS SELECT NULL AS `shipment_id` WHERE 0;
--> statement-breakpoint
CREATE TRIGGER `shipment_search_doc_write` INSTEAD OF INSERT ON `shipment_search_doc_writes` BEGIN
  DELETE FROM `shipment_search_docs` WHERE `shipment_id` = NEW.`shipment_id` AND NOT EXISTS (SELECT 1 FROM `shipment_search` WHERE `shipment_id` = NEW.`shipment_id`);
  UPDATE `shipment_search_docs` SET `body` = (SELECT group_concat(`body`, char(10)) FROM `shipment_search` WHERE `shipment_id` = NEW.`shipment_id`)
  WHERE `shipment_id` = NEW.`shipment_id` AND `body` IS NOT (SELECT group_concat(`body`, char(10)) FROM `shipment_search` WHERE `shipment_id` = NEW.`shipment_id`);
  INSERT OR IGNORE INTO `search_org_keys` (`org_id`) SELECT `org_id` FROM `shipments` WHERE `id` = NEW.`shipment_id`;
  -- A new document goes after the organization's last one, 2^20 on: a create, the newest shipment,
  -- found in two index seeks (and every new one once the documents are out of order).
  INSERT INTO `shipment_search_docs` (`id`, `shipment_id`, `body`)
  SELECT coalesce((SELECT max(d.`id`) FROM `shipment_search_docs` d WHERE d.`id` BETWEEN k.`key` << 48 AND ((k.`key` + 1) << 48) - 1), k.`key` << 48) + 1048576,
    o.`id`, (SELECT group_concat(`body`, char(10)) FROM `shipment_search` WHERE `shipment_id` = NEW.`shipment_id`)
  FROM `shipments` o JOIN `search_org_keys` k ON k.`org_id` = o.`org_id`
  WHERE o.`id` = NEW.`shipment_id` AND NOT EXISTS (SELECT 1 FROM `shipment_search_docs` WHERE `shipment_id` = o.`id`) AND EXISTS (SELECT 1 FROM `shipment_search` WHERE `shipment_id` = o.`id`)
    AND (k.`shipments_unordered` OR NOT EXISTS (SELECT 1 FROM `shipments` x JOIN `shipment_search_docs` d ON d.`shipment_id` = x.`id`
      WHERE x.`org_id` = o.`org_id` AND (x.`created_at`, x.`id`) > (o.`created_at`, o.`id`)));
  -- An older one goes between the documents of the shipments before and after it in the list's order,
  -- a sixteenth of the way: a run written in rising order (a clock set back, an import of older ones)
  -- fits about 200 in one gap and leaves room before each; halfway once the gap is small.
  INSERT INTO `shipment_search_docs` (`id`, `shipment_id`, `body`)
  SELECT CASE
      WHEN p.`after` - p.`before` >= 32 THEN p.`before` + (p.`after` - p.`before`) / 16
      WHEN p.`after` - p.`before` > 1 THEN p.`before` + (p.`after` - p.`before`) / 2
      ELSE p.`last` + 1048576
    END, p.`id`, (SELECT group_concat(`body`, char(10)) FROM `shipment_search` WHERE `shipment_id` = NEW.`shipment_id`)
  FROM (
    SELECT o.`id`,
      coalesce((SELECT d.`id` FROM `shipments` x JOIN `shipment_search_docs` d ON d.`shipment_id` = x.`id`
        WHERE x.`org_id` = o.`org_id` AND (x.`created_at`, x.`id`) < (o.`created_at`, o.`id`) ORDER BY x.`created_at` DESC, x.`id` DESC LIMIT 1), k.`key` << 48) AS `before`,
      (SELECT d.`id` FROM `shipments` x JOIN `shipment_search_docs` d ON d.`shipment_id` = x.`id`
        WHERE x.`org_id` = o.`org_id` AND (x.`created_at`, x.`id`) > (o.`created_at`, o.`id`) ORDER BY x.`created_at`, x.`id` LIMIT 1) AS `after`,
      (SELECT max(d.`id`) FROM `shipment_search_docs` d WHERE d.`id` BETWEEN k.`key` << 48 AND ((k.`key` + 1) << 48) - 1) AS `last`
    FROM `shipments` o JOIN `search_org_keys` k ON k.`org_id` = o.`org_id`
    WHERE o.`id` = NEW.`shipment_id` AND NOT EXISTS (SELECT 1 FROM `shipment_search_docs` WHERE `shipment_id` = o.`id`) AND EXISTS (SELECT 1 FROM `shipment_search` WHERE `shipment_id` = o.`id`)
    -- OFFSET keeps SQLite from folding this into the CASE: each subquery is run once, not once a mention.
    LIMIT 1 OFFSET 0
  ) p;
  -- No room was left between the two: pages are then read another way (search.ts).
  UPDATE `search_org_keys` SET `shipments_unordered` = 1
  WHERE `shipments_unordered` = 0 AND `org_id` = (
    SELECT o.`org_id` FROM `shipments` o JOIN `shipment_search_docs` me ON me.`shipment_id` = o.`id`
    WHERE o.`id` = NEW.`shipment_id` AND (SELECT d.`id` FROM `shipments` x JOIN `shipment_search_docs` d ON d.`shipment_id` = x.`id`
        WHERE x.`org_id` = o.`org_id` AND (x.`created_at`, x.`id`) > (o.`created_at`, o.`id`) ORDER BY x.`created_at`, x.`id` LIMIT 1) < me.`id`
  );
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_search_doc_source_insert` AFTER INSERT ON `shipment_search`
WHEN NOT EXISTS (SELECT 1 FROM `search_doc_deferrals`) BEGIN
  INSERT INTO `shipment_search_doc_writes` (`shipment_id`) VALUES (NEW.`shipment_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_search_doc_source_delete` AFTER DELETE ON `shipment_search`
WHEN NOT EXISTS (SELECT 1 FROM `search_doc_deferrals`) BEGIN
  INSERT INTO `shipment_search_doc_writes` (`shipment_id`) VALUES (OLD.`shipment_id`);
END;
--> statement-breakpoint
-- A shipment moved in the list's order (never by the app; by hand, or another organization) is placed anew.
CREATE TRIGGER `shipment_search_doc_moved` AFTER UPDATE OF `created_at`, `org_id` ON `shipments` BEGIN
  DELETE FROM `shipment_search_docs` WHERE `shipment_id` = NEW.`id`;
  INSERT INTO `shipment_search_doc_writes` (`shipment_id`) VALUES (NEW.`id`);
END;
--> statement-breakpoint
-- Orders: the old per-source index goes; a document per order takes its place.
DROP TRIGGER `order_search_fts_insert`;
--> statement-breakpoint
DROP TRIGGER `order_search_fts_delete`;
--> statement-breakpoint
DROP TABLE `order_search_fts`;
--> statement-breakpoint
INSERT OR IGNORE INTO `search_org_keys` (`org_id`) SELECT DISTINCT `org_id` FROM `orders` ORDER BY `org_id`;
--> statement-breakpoint
-- Existing orders, numbered in the list's creation order with room between them.
INSERT INTO `order_search_docs` (`id`, `order_id`, `body`)
SELECT (k.`key` << 48) + 1048576 * row_number() OVER (PARTITION BY o.`org_id` ORDER BY o.`created_at`, o.`id`), o.`id`, b.`body`
FROM `orders` o
JOIN `search_org_keys` k ON k.`org_id` = o.`org_id`
JOIN (SELECT `order_id`, group_concat(`body`, char(10) ORDER BY `id`) AS `body` FROM `order_search` GROUP BY `order_id`) b ON b.`order_id` = o.`id`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `order_search_docs_fts` USING fts5(`body`, content = 'order_search_docs', content_rowid = 'id', tokenize = 'trigram');
--> statement-breakpoint
INSERT INTO `order_search_docs_fts` (`order_search_docs_fts`) VALUES ('rebuild');
--> statement-breakpoint
INSERT INTO `order_search_docs_fts` (`order_search_docs_fts`) VALUES ('optimize');
--> statement-breakpoint
CREATE TRIGGER `order_search_docs_fts_insert` AFTER INSERT ON `order_search_docs` BEGIN
  INSERT INTO `order_search_docs_fts` (`rowid`, `body`) VALUES (NEW.`id`, NEW.`body`);
END;
--> statement-breakpoint
CREATE TRIGGER `order_search_docs_fts_update` AFTER UPDATE ON `order_search_docs` BEGIN
  INSERT INTO `order_search_docs_fts` (`order_search_docs_fts`, `rowid`, `body`) VALUES ('delete', OLD.`id`, OLD.`body`);
  INSERT INTO `order_search_docs_fts` (`rowid`, `body`) VALUES (NEW.`id`, NEW.`body`);
END;
--> statement-breakpoint
CREATE TRIGGER `order_search_docs_fts_delete` AFTER DELETE ON `order_search_docs` BEGIN
  INSERT INTO `order_search_docs_fts` (`order_search_docs_fts`, `rowid`, `body`) VALUES ('delete', OLD.`id`, OLD.`body`);
END;
--> statement-breakpoint
-- The one rule that writes a order's document: inserting a order id here brings its document in
-- line with its rows in `order_search` (made, rewritten or removed).
CREATE VIEW `order_search_doc_writes` AS SELECT NULL AS `order_id` WHERE 0;
--> statement-breakpoint
CREATE TRIGGER `order_search_doc_write` INSTEAD OF INSERT ON `order_search_doc_writes` BEGIN
  DELETE FROM `order_search_docs` WHERE `order_id` = NEW.`order_id` AND NOT EXISTS (SELECT 1 FROM `order_search` WHERE `order_id` = NEW.`order_id`);
  UPDATE `order_search_docs` SET `body` = (SELECT group_concat(`body`, char(10)) FROM `order_search` WHERE `order_id` = NEW.`order_id`)
  WHERE `order_id` = NEW.`order_id` AND `body` IS NOT (SELECT group_concat(`body`, char(10)) FROM `order_search` WHERE `order_id` = NEW.`order_id`);
  INSERT OR IGNORE INTO `search_org_keys` (`org_id`) SELECT `org_id` FROM `orders` WHERE `id` = NEW.`order_id`;
  -- A new document goes after the organization's last one, 2^20 on: a create, the newest order,
  -- found in two index seeks (and every new one once the documents are out of order).
  INSERT INTO `order_search_docs` (`id`, `order_id`, `body`)
  SELECT coalesce((SELECT max(d.`id`) FROM `order_search_docs` d WHERE d.`id` BETWEEN k.`key` << 48 AND ((k.`key` + 1) << 48) - 1), k.`key` << 48) + 1048576,
    o.`id`, (SELECT group_concat(`body`, char(10)) FROM `order_search` WHERE `order_id` = NEW.`order_id`)
  FROM `orders` o JOIN `search_org_keys` k ON k.`org_id` = o.`org_id`
  WHERE o.`id` = NEW.`order_id` AND NOT EXISTS (SELECT 1 FROM `order_search_docs` WHERE `order_id` = o.`id`) AND EXISTS (SELECT 1 FROM `order_search` WHERE `order_id` = o.`id`)
    AND (k.`orders_unordered` OR NOT EXISTS (SELECT 1 FROM `orders` x JOIN `order_search_docs` d ON d.`order_id` = x.`id`
      WHERE x.`org_id` = o.`org_id` AND (x.`created_at`, x.`id`) > (o.`created_at`, o.`id`)));
  -- An older one goes between the documents of the orders before and after it in the list's order,
  -- a sixteenth of the way: a run written in rising order (a clock set back, an import of older ones)
  -- fits about 200 in one gap and leaves room before each; halfway once the gap is small.
  INSERT INTO `order_search_docs` (`id`, `order_id`, `body`)
  SELECT CASE
      WHEN p.`after` - p.`before` >= 32 THEN p.`before` + (p.`after` - p.`before`) / 16
      WHEN p.`after` - p.`before` > 1 THEN p.`before` + (p.`after` - p.`before`) / 2
      ELSE p.`last` + 1048576
    END, p.`id`, (SELECT group_concat(`body`, char(10)) FROM `order_search` WHERE `order_id` = NEW.`order_id`)
  FROM (
    SELECT o.`id`,
      coalesce((SELECT d.`id` FROM `orders` x JOIN `order_search_docs` d ON d.`order_id` = x.`id`
        WHERE x.`org_id` = o.`org_id` AND (x.`created_at`, x.`id`) < (o.`created_at`, o.`id`) ORDER BY x.`created_at` DESC, x.`id` DESC LIMIT 1), k.`key` << 48) AS `before`,
      (SELECT d.`id` FROM `orders` x JOIN `order_search_docs` d ON d.`order_id` = x.`id`
        WHERE x.`org_id` = o.`org_id` AND (x.`created_at`, x.`id`) > (o.`created_at`, o.`id`) ORDER BY x.`created_at`, x.`id` LIMIT 1) AS `after`,
      (SELECT max(d.`id`) FROM `order_search_docs` d WHERE d.`id` BETWEEN k.`key` << 48 AND ((k.`key` + 1) << 48) - 1) AS `last`
    FROM `orders` o JOIN `search_org_keys` k ON k.`org_id` = o.`org_id`
    WHERE o.`id` = NEW.`order_id` AND NOT EXISTS (SELECT 1 FROM `order_search_docs` WHERE `order_id` = o.`id`) AND EXISTS (SELECT 1 FROM `order_search` WHERE `order_id` = o.`id`)
    -- OFFSET keeps SQLite from folding this into the CASE: each subquery is run once, not once a mention.
    LIMIT 1 OFFSET 0
  ) p;
  -- No room was left between the two: pages are then read another way (search.ts).
  UPDATE `search_org_keys` SET `orders_unordered` = 1
  WHERE `orders_unordered` = 0 AND `org_id` = (
    SELECT o.`org_id` FROM `orders` o JOIN `order_search_docs` me ON me.`order_id` = o.`id`
    WHERE o.`id` = NEW.`order_id` AND (SELECT d.`id` FROM `orders` x JOIN `order_search_docs` d ON d.`order_id` = x.`id`
        WHERE x.`org_id` = o.`org_id` AND (x.`created_at`, x.`id`) > (o.`created_at`, o.`id`) ORDER BY x.`created_at`, x.`id` LIMIT 1) < me.`id`
  );
END;
--> statement-breakpoint
CREATE TRIGGER `order_search_doc_source_insert` AFTER INSERT ON `order_search`
WHEN NOT EXISTS (SELECT 1 FROM `search_doc_deferrals`) BEGIN
  INSERT INTO `order_search_doc_writes` (`order_id`) VALUES (NEW.`order_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `order_search_doc_source_delete` AFTER DELETE ON `order_search`
WHEN NOT EXISTS (SELECT 1 FROM `search_doc_deferrals`) BEGIN
  INSERT INTO `order_search_doc_writes` (`order_id`) VALUES (OLD.`order_id`);
END;
--> statement-breakpoint
-- A order moved in the list's order (never by the app; by hand, or another organization) is placed anew.
CREATE TRIGGER `order_search_doc_moved` AFTER UPDATE OF `created_at`, `org_id` ON `orders` BEGIN
  DELETE FROM `order_search_docs` WHERE `order_id` = NEW.`id`;
  INSERT INTO `order_search_doc_writes` (`order_id`) VALUES (NEW.`id`);
END;

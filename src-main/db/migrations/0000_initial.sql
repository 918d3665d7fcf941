CREATE TABLE `add_ons` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` text NOT NULL,
	`type` text NOT NULL,
	`quantity` integer NOT NULL,
	`unit_price` integer NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `add_ons_org` ON `add_ons` (`org_id`);--> statement-breakpoint
CREATE TABLE `api_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`token_prefix` text NOT NULL,
	`scopes` text NOT NULL,
	`created_by` text NOT NULL,
	`last_used_at` text,
	`expires_at` text,
	`revoked_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_tokens_token_hash_unique` ON `api_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `api_tokens_org_created` ON `api_tokens` (`org_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `carriers` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`name` text NOT NULL,
	`carrier_slug` text NOT NULL,
	`config` text NOT NULL,
	`sender_address_id` text NOT NULL,
	`deleted_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`sender_address_id`) REFERENCES `sender_addresses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `carriers_org_created` ON `carriers` (`org_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `documents` (
	`id` text PRIMARY KEY NOT NULL,
	`shipment_id` text NOT NULL,
	`parcel_id` text,
	`document_type` text NOT NULL,
	`format` text NOT NULL,
	`size` text NOT NULL,
	`content` blob NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`shipment_id`) REFERENCES `shipments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `documents_shipment` ON `documents` (`shipment_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`credential_id` text NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`status_code` integer NOT NULL,
	`response_body` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`credential_id`, `key`)
);
--> statement-breakpoint
CREATE INDEX `idempotency_created` ON `idempotency_keys` (`created_at`);--> statement-breakpoint
CREATE TABLE `order_channels` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`config` text NOT NULL,
	`deleted_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `order_channels_org_created` ON `order_channels` (`org_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `order_lines` (
	`id` text PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`position` integer NOT NULL,
	`name` text NOT NULL,
	`quantity` integer NOT NULL,
	`sku` text,
	`unit_price` real,
	`total_price` real,
	`currency` text,
	`weight` real,
	`weight_unit` text,
	`variant_id` text,
	`product_id` text,
	`image_url` text,
	`hs_code` text,
	`country_of_origin` text,
	`province_of_origin` text,
	`barcode` text,
	`vendor` text,
	`requires_shipping` integer DEFAULT true NOT NULL,
	`taxable` integer DEFAULT true NOT NULL,
	`gift_card` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `order_lines_order` ON `order_lines` (`order_id`,`position`);--> statement-breakpoint
CREATE TABLE `orders` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`order_channel_id` text NOT NULL,
	`order_number` text NOT NULL,
	`external_id` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`shipment_count` integer DEFAULT 0 NOT NULL,
	`customer_name` text,
	`customer_email` text,
	`shipping_rule_id` text,
	`notes` text,
	`shipping_address` text,
	`total_amount` real,
	`currency` text,
	`external_data` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`order_channel_id`) REFERENCES `order_channels`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`shipping_rule_id`) REFERENCES `shipping_rules`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `orders_channel_number` ON `orders` (`order_channel_id`,`order_number`);--> statement-breakpoint
CREATE INDEX `orders_org_created` ON `orders` (`org_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `orders_org_status_created` ON `orders` (`org_id`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `org_members` (
	`org_id` text NOT NULL,
	`user_id` text NOT NULL,
	`role` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`org_id`, `user_id`),
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `org_members_user` ON `org_members` (`user_id`);--> statement-breakpoint
CREATE TABLE `orgs` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`description` text,
	`currency` text DEFAULT 'DKK' NOT NULL,
	`vat_number` text,
	`billing_email` text,
	`company_name` text,
	`address_line1` text,
	`address_line2` text,
	`city` text,
	`postal_code` text,
	`country` text,
	`plan` text DEFAULT 'starter' NOT NULL,
	`overage_enabled` integer DEFAULT false NOT NULL,
	`shipment_seq` integer DEFAULT 0 NOT NULL,
	`tracking_seq` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `orgs_slug_unique` ON `orgs` (`slug`);--> statement-breakpoint
CREATE TABLE `outbox_events` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`type` text NOT NULL,
	`payload` text NOT NULL,
	`created_at` text NOT NULL,
	`dispatched_at` text,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `outbox_undispatched` ON `outbox_events` (`dispatched_at`,`created_at`);--> statement-breakpoint
CREATE TABLE `parcel_order_lines` (
	`id` text PRIMARY KEY NOT NULL,
	`parcel_id` text NOT NULL,
	`position` integer NOT NULL,
	`order_line_id` text,
	`sku` text NOT NULL,
	`quantity` integer NOT NULL,
	`description` text,
	`unit_price` real,
	`currency` text,
	`vat_percent` real,
	`location` text,
	`country_of_origin` text,
	`tarrif_number` text,
	`unit_weight_kg` real,
	FOREIGN KEY (`parcel_id`) REFERENCES `parcels`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`order_line_id`) REFERENCES `order_lines`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `parcel_order_lines_parcel` ON `parcel_order_lines` (`parcel_id`,`position`);--> statement-breakpoint
CREATE INDEX `parcel_order_lines_order_line` ON `parcel_order_lines` (`order_line_id`);--> statement-breakpoint
CREATE TABLE `parcels` (
	`id` text PRIMARY KEY NOT NULL,
	`shipment_id` text NOT NULL,
	`position` integer NOT NULL,
	`weight` real NOT NULL,
	`weight_unit` text DEFAULT 'kg' NOT NULL,
	`length` real DEFAULT 0 NOT NULL,
	`width` real DEFAULT 0 NOT NULL,
	`height` real DEFAULT 0 NOT NULL,
	FOREIGN KEY (`shipment_id`) REFERENCES `shipments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `parcels_shipment` ON `parcels` (`shipment_id`,`position`);--> statement-breakpoint
CREATE TABLE `print_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`printer_id` text,
	`document_id` text NOT NULL,
	`status` text NOT NULL,
	`error` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`copies` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`printer_id`) REFERENCES `printers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`document_id`) REFERENCES `documents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `print_jobs_org_created` ON `print_jobs` (`org_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `printers` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`name` text NOT NULL,
	`driver` text NOT NULL,
	`target` text NOT NULL,
	`format` text NOT NULL,
	`label_size` text NOT NULL,
	`is_default` integer DEFAULT false NOT NULL,
	`deleted_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `printers_org_created` ON `printers` (`org_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `sender_addresses` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`name` text NOT NULL,
	`att_contact` text DEFAULT '' NOT NULL,
	`address1` text NOT NULL,
	`address2` text,
	`zipcode` text NOT NULL,
	`city` text NOT NULL,
	`phone` text DEFAULT '' NOT NULL,
	`country_code` text NOT NULL,
	`state` text DEFAULT '' NOT NULL,
	`email` text DEFAULT '' NOT NULL,
	`customs` text,
	`deleted_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `sender_addresses_org_created` ON `sender_addresses` (`org_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `shipment_activities` (
	`id` text PRIMARY KEY NOT NULL,
	`shipment_id` text NOT NULL,
	`action` text NOT NULL,
	`description` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`shipment_id`) REFERENCES `shipments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `shipment_activities_shipment` ON `shipment_activities` (`shipment_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `shipment_errors` (
	`id` text PRIMARY KEY NOT NULL,
	`shipment_id` text NOT NULL,
	`code` text NOT NULL,
	`message` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`shipment_id`) REFERENCES `shipments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `shipment_errors_shipment` ON `shipment_errors` (`shipment_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `shipment_logs` (
	`id` text PRIMARY KEY NOT NULL,
	`shipment_id` text NOT NULL,
	`direction` text NOT NULL,
	`request` text,
	`response` text,
	`status_code` integer,
	`error` text,
	`duration` integer,
	`created_at` text NOT NULL,
	FOREIGN KEY (`shipment_id`) REFERENCES `shipments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `shipment_logs_shipment` ON `shipment_logs` (`shipment_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `shipment_parties` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`shipment_id` text NOT NULL,
	`position` integer NOT NULL,
	`type` text NOT NULL,
	`name` text NOT NULL,
	`attention` text,
	`address1` text NOT NULL,
	`address2` text,
	`postal_code` text NOT NULL,
	`city` text NOT NULL,
	`country_code` text NOT NULL,
	`phone` text,
	`email` text,
	`attributes` text NOT NULL,
	FOREIGN KEY (`shipment_id`) REFERENCES `shipments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `shipment_parties_shipment` ON `shipment_parties` (`shipment_id`,`position`);--> statement-breakpoint
CREATE TABLE `shipment_usage` (
	`org_id` text NOT NULL,
	`period` text NOT NULL,
	`created` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`org_id`, `period`),
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `shipments` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`reference` text NOT NULL,
	`sender_address_id` text NOT NULL,
	`type` text NOT NULL,
	`carrier_id` text NOT NULL,
	`product_id` text NOT NULL,
	`services` text NOT NULL,
	`additional_parameters` text NOT NULL,
	`term_of_trade` text DEFAULT 'DAP' NOT NULL,
	`status` text NOT NULL,
	`service_point_id` text,
	`pickup_date` text,
	`pickup_from` text,
	`pickup_to` text,
	`pickup_instruction` text,
	`tracking_number` text,
	`tracking_url` text,
	`order_id` text,
	`shipping_rule_id` text,
	`return_for_shipment_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`sender_address_id`) REFERENCES `sender_addresses`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`carrier_id`) REFERENCES `carriers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`shipping_rule_id`) REFERENCES `shipping_rules`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `shipments_org_created` ON `shipments` (`org_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `shipments_org_status_created` ON `shipments` (`org_id`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `shipments_order` ON `shipments` (`order_id`);--> statement-breakpoint
CREATE INDEX `shipments_return_for` ON `shipments` (`return_for_shipment_id`);--> statement-breakpoint
CREATE TABLE `shipping_rules` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`carrier_id` text NOT NULL,
	`product_id` text NOT NULL,
	`services` text NOT NULL,
	`additional_parameters` text NOT NULL,
	`sender_address_id` text NOT NULL,
	`receiving_countries` text NOT NULL,
	`conditions` text NOT NULL,
	`email_notification` integer DEFAULT false NOT NULL,
	`phone_notification` integer DEFAULT false NOT NULL,
	`generate_proforma_invoice` integer DEFAULT false NOT NULL,
	`generate_commercial_invoice` integer DEFAULT false NOT NULL,
	`generate_packing_list` integer DEFAULT false NOT NULL,
	`auto_print_labels` integer DEFAULT false NOT NULL,
	`auto_print_documents` integer DEFAULT false NOT NULL,
	`label_printer_id` text,
	`document_printer_id` text,
	`return_shipping_rule_id` text,
	`auto_create_return_shipment` integer DEFAULT false NOT NULL,
	`deleted_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`carrier_id`) REFERENCES `carriers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`sender_address_id`) REFERENCES `sender_addresses`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`label_printer_id`) REFERENCES `printers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`document_printer_id`) REFERENCES `printers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `shipping_rules_org_created` ON `shipping_rules` (`org_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`password_hash` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`webhook_id` text NOT NULL,
	`event_id` text NOT NULL,
	`event_type` text NOT NULL,
	`status_code` integer,
	`success` integer DEFAULT false NOT NULL,
	`attempt` integer NOT NULL,
	`duration_ms` integer,
	`error` text,
	`next_attempt_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_webhook` ON `webhook_deliveries` (`webhook_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due` ON `webhook_deliveries` (`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `webhooks` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`name` text NOT NULL,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`secret_sealed` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhooks_org_created` ON `webhooks` (`org_id`,`created_at`,`id`);
ALTER TABLE `order_lines` ADD `location` text;--> statement-breakpoint
ALTER TABLE `orgs` ADD `return_instructions` text;--> statement-breakpoint
ALTER TABLE `orgs` ADD `onboarding` text;
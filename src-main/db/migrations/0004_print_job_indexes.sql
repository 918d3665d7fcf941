CREATE INDEX `print_jobs_org_status_created` ON `print_jobs` (`org_id`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `print_jobs_document` ON `print_jobs` (`document_id`);
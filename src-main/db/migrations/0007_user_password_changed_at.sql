-- Null until the password is first changed; from then on, logins (JWTs) issued before it are refused.
ALTER TABLE `users` ADD `password_changed_at` text;
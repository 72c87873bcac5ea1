-- Create "rate_limit_counters" table
CREATE TABLE `rate_limit_counters` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `principal` text NOT NULL, `bucket` text NOT NULL, `window_start` integer NOT NULL, `used` integer NOT NULL DEFAULT (0), `budget` integer NOT NULL DEFAULT (0));
-- Create index "ratelimitcounter_window_start_principal_bucket" to table: "rate_limit_counters"
CREATE UNIQUE INDEX `ratelimitcounter_window_start_principal_bucket` ON `rate_limit_counters` (`window_start`, `principal`, `bucket`);

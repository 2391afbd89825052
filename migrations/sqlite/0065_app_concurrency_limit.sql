-- An app's own cap on its requests in progress at once in a process (APP_CONCURRENCY_LIMIT is the
-- default): an issuer can give a large partner more room, or hold a noisy one to less. NULL: the
-- default applies. Adding a nullable column without a default rewrites nothing on either store.
ALTER TABLE apps ADD COLUMN concurrency_limit INTEGER;

-- The interface language is a choice, not a default: NULL follows the reader's browser (the
-- language switcher's cookie, then Accept-Language). Until now every account had 'en' without
-- having chosen it, so those become NULL; a language chosen from now on is kept.
ALTER TABLE users ALTER COLUMN locale DROP NOT NULL;
ALTER TABLE users ALTER COLUMN locale DROP DEFAULT;
UPDATE users SET locale = NULL WHERE locale = 'en';
ALTER TABLE users ADD CONSTRAINT users_locale_known CHECK (locale IN ('en', 'de', 'es', 'it', 'ja', 'th', 'zh'));

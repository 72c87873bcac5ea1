-- Full-text search (package internal/search), written by hand: ent models
-- neither FTS5 virtual tables nor these tables.
-- search_spaces: per space, the revision its index reflects.
CREATE TABLE `search_spaces` (`space_id` text NOT NULL, `revision_id` text NOT NULL, `config` text NOT NULL, `language` text NULL, PRIMARY KEY (`space_id`), CONSTRAINT `search_spaces_space` FOREIGN KEY (`space_id`) REFERENCES `spaces` (`id`) ON DELETE CASCADE);
-- search_pages: what results show of each indexed page.
CREATE TABLE `search_pages` (`space_id` text NOT NULL, `page_id` text NOT NULL, `title` text NOT NULL, `path` text NOT NULL, `ancestors` text NOT NULL, PRIMARY KEY (`space_id`, `page_id`), CONSTRAINT `search_pages_space` FOREIGN KEY (`space_id`) REFERENCES `spaces` (`id`) ON DELETE CASCADE);
-- search_sections: the rows of each page (section 0: the whole page, its
-- title, headings and text; 1 and up: a section, its heading and text), a
-- row per chunk of text.
CREATE TABLE `search_sections` (`id` integer NOT NULL PRIMARY KEY, `space_id` text NOT NULL, `page_id` text NOT NULL, `section` integer NOT NULL, `chunk` integer NOT NULL, `anchor` text NOT NULL, `title` text NOT NULL, `headings` text NOT NULL, `body` text NOT NULL, CONSTRAINT `search_sections_space` FOREIGN KEY (`space_id`) REFERENCES `spaces` (`id`) ON DELETE CASCADE);
CREATE INDEX `search_sections_space_page` ON `search_sections` (`space_id`, `page_id`);
-- search_fts and search_fts_sections: the full-text indexes of the page
-- rows and of the section rows of search_sections, by its id (rowid),
-- holding no text of their own; Porter stemming over unicode61.
CREATE VIRTUAL TABLE `search_fts` USING fts5(`title`, `headings`, `body`, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE `search_fts_sections` USING fts5(`heading`, `body`, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2');

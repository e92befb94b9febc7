-- Keyword search (PRODUCT.md "Search"; app/lib/search-bigrams.ts builds the matching queries).
-- class_search_bigrams: every character (unigram) and every pair of adjacent characters (bigram) of an already
-- normalized text (app/lib/search-normalize.ts leaves single spaces as its only white space), as a tsvector of
-- lexemes taken as-is (no parser, no dictionary: the same on every locale, PGlite and PostgreSQL alike). Grams never
-- span a space, tab or line break. Characters are code points, as Array.from() counts them in TypeScript.
-- Must stay identical to textGrams() in app/lib/search-bigrams.ts (an integration test compares them).
CREATE OR REPLACE FUNCTION class_search_bigrams(t text) RETURNS tsvector
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $fn$
  SELECT coalesce(array_to_tsvector(array_agg(g)), ''::tsvector)
  FROM string_to_table(translate(t, E'\t\n\r', '   '), ' ') AS w,
  LATERAL (
    SELECT substr(w, i, 1) AS g FROM generate_series(1, char_length(w)) AS i
    UNION ALL
    SELECT substr(w, i, 2) FROM generate_series(1, char_length(w) - 1) AS i
  ) AS grams
$fn$;
--> statement-breakpoint
-- class_search_fold: an SQL approximation of normalizeSearchText (NFKC, lower case, katakana → hiragana), used
-- only to tell title matches from other matches when ranking; matching itself uses search_text.
CREATE OR REPLACE FUNCTION class_search_fold(t text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $fn$
  SELECT translate(lower(normalize(t, NFKC)), 'ァアィイゥウェエォオカガキギクグケゲコゴサザシジスズセゼソゾタダチヂッツヅテデトドナニヌネノハバパヒビピフブプヘベペホボポマミムメモャヤュユョヨラリルレロヮワヰヱヲンヴヵヶヽヾ', 'ぁあぃいぅうぇえぉおかがきぎくぐけげこごさざしじすずせぜそぞただちぢっつづてでとどなにぬねのはばぱひびぴふぶぷへべぺほぼぽまみむめもゃやゅゆょよらりるれろゎわゐゑをんゔゕゖゝゞ')
$fn$;
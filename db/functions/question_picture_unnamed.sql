-- The first picture of a question whose only words are a file's name ("circuit_2.png"), or NULL:
-- a picture's alt text in its rich texts, or the text of an option that is a picture. A file's
-- name says nothing of what a picture shows (WCAG's failure F30); an import gives one when the
-- file had no words (Moodle's old question picture, a QTI choice that is only a picture), and the
-- question waits as a draft until an admin gives it words (questions_hold_unnamed_pictures).
CREATE OR REPLACE FUNCTION public.question_picture_unnamed(p_options jsonb, p_rich jsonb)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT coalesce(
        jsonb_path_query_first(p_rich, 'strict $.** ? (@.type == "picture" && @.alt like_regex "^[^\\s/\\\\]+\\.(png|jpe?g|gif|webp|svg|mp3|ogg|m4a|mp4|webm)$" flag "i").alt'),
        jsonb_path_query_first(p_options, 'strict $[*] ? (exists(@.imageUrl) && @.text like_regex "^[^\\s/\\\\]+\\.(png|jpe?g|gif|webp|svg)$" flag "i").text')
    ) #>> '{}'
$function$;
GRANT EXECUTE ON FUNCTION question_picture_unnamed(p_options jsonb, p_rich jsonb) TO portal_app;

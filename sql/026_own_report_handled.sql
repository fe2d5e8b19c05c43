-- Never a notification for one's own act: an admin who closes a report they filed themselves is not told of it.
-- Moderation sets `chidian.actor` (transaction-local) to the acting admin; the CLI, which acts as nobody, leaves it
-- unset and every reporter hears.

CREATE OR REPLACE FUNCTION notify_report_handled() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    c record;
BEGIN
    IF cache_bulk() OR OLD.closed_at IS NOT NULL OR NEW.closed_at IS NULL
        OR NEW.reporter_id = current_setting('chidian.actor', true) THEN
        RETURN NULL;
    END IF;
    SELECT store_id INTO c FROM comments WHERE id = NEW.comment_id;
    PERFORM notification_add(NEW.reporter_id, 'report_handled', NULL, NEW.comment_id, c.store_id);
    RETURN NULL;
END $$;

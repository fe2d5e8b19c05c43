-- Popular times (issue #49): each store's views by local day and hour, added by the insight flush in the same
-- statement as store_days (the counting itself is the views insights already count in memory). Read for the last
-- 8 weeks by weekday and hour; housekeeping drops older hours.
CREATE TABLE store_hours (
    store_id  text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    day       date NOT NULL,
    hour      smallint NOT NULL CHECK (hour BETWEEN 0 AND 23),
    views     bigint NOT NULL DEFAULT 0 CHECK (views >= 0),
    PRIMARY KEY (store_id, day, hour)
) WITH (fillfactor = 70);  -- as store_days: a flush's additions are HOT updates

CREATE INDEX store_hours_day ON store_hours (day);

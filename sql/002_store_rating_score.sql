-- A store's rating score: the Bayesian average used to sort stores by rating.
--
-- The prior: every store starts with m = 5 virtual reviews of C = 3.5 stars, so
--     score = (rating_sum + C * m) / (rating_count + m) = (rating_sum + 17.5) / (rating_count + 5).
-- A store without reviews scores 3.5; one 5-star review gives 3.75, while fifty reviews averaging 4.6
-- give 4.5, so a single enthusiast does not outrank an established favourite. As reviews accumulate
-- the score tends to the plain average.
--
-- Stored (not computed per query) so the rating sort walks an index; it follows rating_sum and
-- rating_count, which the comments triggers keep exact.
ALTER TABLE stores ADD COLUMN rating_score double precision NOT NULL
    GENERATED ALWAYS AS ((rating_sum::double precision + 3.5 * 5) / (rating_count + 5)) STORED;

CREATE INDEX stores_rating ON stores (rating_score DESC, id DESC) WHERE archived_at IS NULL;

SELECT s.id, (s.rating_score)::text, s.id FROM stores s WHERE s.archived_at IS NULL ORDER BY s.rating_score DESC, s.id DESC LIMIT 21;

#!/usr/bin/env python3
"""Checks scripts/prototypes/batched-visits.sql against StoreVisits.record run once per open, on the same random
sequence: two databases cloned from one seeded template, the reference open by open, the batch in chunks; the three
tables must come out equal.   usage: check-batched-visits.py BASE_URL TEMPLATE_DB [SEED]"""
import random, subprocess, sys, os, datetime, time

base, template = sys.argv[1], sys.argv[2]
rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
here = os.path.dirname(os.path.abspath(__file__))

def psql(db, sql):
    return subprocess.run(["psql", "-qAtX", "-v", "ON_ERROR_STOP=1", f"{base}/{db}"], input=sql, text=True,
                          capture_output=True, check=True).stdout

for db in ("visits_ref", "visits_batch"):
    psql("postgres", f"DROP DATABASE IF EXISTS {db} WITH (FORCE); CREATE DATABASE {db} TEMPLATE {template};")
stores = psql("visits_ref", "SELECT id FROM stores WHERE archived_at IS NULL ORDER BY id").split()
viewers = [f"v:{n:04d}" for n in range(25)] + [f"u:{n:04d}" for n in range(5)]
t = datetime.datetime(2026, 11, 1, tzinfo=datetime.timezone.utc)
opens = []
for _ in range(int(os.environ.get("OPENS", "1500"))):
    t += datetime.timedelta(seconds=rng.choice([1, 5, 60, 600, 3600, 7200]))
    opens.append((rng.choice(viewers), rng.choice(stores[: rng.choice([5, 15, len(stores)])]), t.isoformat()))

reference = """PREPARE ref(text, text, timestamptz) AS
WITH store AS (SELECT id FROM stores WHERE id = $2 AND archived_at IS NULL
), opened AS (
    INSERT INTO viewer_store_opens AS o (viewer, store_id, opened_at) SELECT $1, id, $3 FROM store
    ON CONFLICT (viewer, store_id) DO UPDATE SET opened_at = greatest(o.opened_at, EXCLUDED.opened_at)
    RETURNING store_id
), recent AS (
    SELECT o.store_id FROM viewer_store_opens o
    WHERE o.viewer = $1 AND o.store_id <> $2 AND o.opened_at > $3 - interval '1 day' AND EXISTS (SELECT 1 FROM opened)
    ORDER BY o.opened_at DESC LIMIT 50
), pairs AS (
    INSERT INTO viewer_covisits (viewer, a, b, at)
    SELECT $1, least(r.store_id, $2), greatest(r.store_id, $2), $3 FROM recent r ORDER BY 2, 3
    ON CONFLICT DO NOTHING RETURNING a, b
), counted AS (
    INSERT INTO store_covisits AS c (store_id, other_id, viewers)
    SELECT x, y, 1 FROM (SELECT a, b FROM pairs UNION ALL SELECT b, a FROM pairs) p (x, y) ORDER BY x, y
    ON CONFLICT (store_id, other_id) DO UPDATE SET viewers = c.viewers + 1 RETURNING 1
) SELECT count(*) FROM counted;
"""
# PAIRS_LIMIT: a lower cap than 50, so a small data set reaches it (both statements get it).
limit = os.environ.get("PAIRS_LIMIT")
if limit:
    reference = reference.replace("LIMIT 50", f"LIMIT {int(limit)}")
started = time.monotonic()
psql("visits_ref", reference + "".join(f"EXECUTE ref('{v}', '{s}', '{a}');\n" for v, s, a in opens))
print(f"reference: {len(opens)} statements, {time.monotonic() - started:.2f} s")

batch = open(os.path.join(here, "batched-visits.sql")).read().rstrip().rstrip(";")
if limit:
    batch = batch.replace("n <= 50", f"n <= {int(limit)}")
script = f"PREPARE batch(text[], text[], timestamptz[]) AS {batch};\n"
i = 0
while i < len(opens):
    n = int(os.environ["CHUNK"]) if os.environ.get("CHUNK") else rng.choice([1, 7, 37, 200])
    chunk = opens[i : i + n]
    i += n
    arr = lambda k: "ARRAY[" + ",".join(f"'{o[k]}'" for o in chunk) + "]"
    script += f"EXECUTE batch({arr(0)}::text[], {arr(1)}::text[], {arr(2)}::timestamptz[]);\n"
started = time.monotonic()
psql("visits_batch", script)
print(f"batches: {script.count('EXECUTE')} statements, {time.monotonic() - started:.2f} s")

ok = True
for table, cols in [("viewer_store_opens", "viewer, store_id, opened_at"), ("viewer_covisits", "viewer, a, b, at"),
                    ("store_covisits", "store_id, other_id, viewers")]:
    q = f"SELECT {cols} FROM {table} ORDER BY {cols}"
    a, b = psql("visits_ref", q), psql("visits_batch", q)
    same = a == b
    ok &= same
    print(f"{table}: {len(a.splitlines())} rows, {'equal' if same else 'DIFFERENT'}")
sys.exit(0 if ok else 1)

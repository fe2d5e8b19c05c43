#!/usr/bin/env python3
"""Request sequences for `make bench` (scripts/bench.sh), generated offline so wrk only walks a file.

  workload.py zipf --items FILE --out FILE [--prefix P] [--suffix S]
      n draws from the items (one a line), Zipf-distributed over a seeded random ranking of them.
  workload.py search-texts --pool DIR --out FILE --summary FILE
      10,000 distinct search texts composed from the pools bench.sh extracted from the database.
  workload.py mixed --stores FILE --reviews FILE --texts FILE --image PATH --users N --out FILE --summary FILE
      The mixed scenario's lines: METHOD <TAB> PATH <TAB> USER (0: anonymous, else a line of the tokens file)
      <TAB> BODY (empty, or JSON where scripts/bench/mixed.lua replaces "%n" by a request counter).

Popularity: items are ranked by a shuffle seeded with --seed (so a store's popularity has nothing to do with its
id or age), and rank r (1-based) is drawn with probability proportional to 1 / r^s, s = 0.99 by default: YCSB's
"zipfian constant", the usual model of web and key-value read popularity. Every draw is seeded too, so two runs
with the same data request the same things in the same order. Python 3 standard library only.
"""
import argparse
import bisect
import itertools
import os
import random
import string
import sys
import urllib.parse

S_DEFAULT = 0.99


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f if line.strip()]


class Zipf:
    """Draws from items ranked by a seeded shuffle, rank r with weight 1 / r^s."""

    def __init__(self, items, seed, s=S_DEFAULT):
        # Sorted first, so the ranking depends on the seed and the set of items, not on the order they came in.
        self.ranked = sorted(items)
        random.Random(f"rank:{seed}").shuffle(self.ranked)
        self.cumulative = list(itertools.accumulate(1.0 / (r ** s) for r in range(1, len(self.ranked) + 1)))

    def draw(self, rng):
        return self.ranked[bisect.bisect_left(self.cumulative, rng.random() * self.cumulative[-1])]

    def share(self, top):
        """The share of draws that go to the `top` most popular items."""
        return self.cumulative[min(top, len(self.ranked)) - 1] / self.cumulative[-1]


def zipf(args):
    items = read_lines(args.items)
    z = Zipf(items, args.seed, args.s)
    rng = random.Random(f"draw:{args.seed}:{args.stream}")
    with open(args.out, "w", encoding="utf-8") as out:
        for _ in range(args.n):
            out.write(f"{args.prefix}{z.draw(rng)}{args.suffix}\n")
    top1 = max(1, len(items) // 100)
    print(f"{len(items)} items, s = {args.s}: the most popular takes {100 * z.share(1):.1f} % of the draws, "
          f"the top 1 % ({top1}) {100 * z.share(top1):.1f} %, the top 10 % {100 * z.share(len(items) // 10):.1f} %")


# --- Search texts ------------------------------------------------------------------------------------------------
# Each class: (name, quota, what it is). A text belongs to the first class that produced it; a class that runs out
# of distinct candidates leaves its shortfall to "rare", whose supply is practically unbounded.
SEARCH_CLASSES = [
    ("dish", 400, "vocabulary dishes (`search_dishes`, the names stores' `dish_names` are drawn from)"),
    ("category", 18, "category names"),
    ("store name", 2000, "whole store names"),
    ("name part", 2500, "1–3 character substrings of store names"),
    ("pinyin", 1500, "full pinyin of store, category and dish names (`search_pinyin.syllables`)"),
    ("initials", 1000, "pinyin initials of the same names (`search_pinyin.initials`)"),
    ("nothing: ASCII", 500, "random 8-letter ASCII words found in no name, dish, pinyin or sampled review"),
    ("nothing: CJK", 500, "pairs of Chinese characters found in no name, dish or sampled review"),
    ("rare", None, "2–4 character substrings of sampled review bodies (letters only): fills up to the total"),
]


def search_texts(args):
    pool = lambda name: read_lines(os.path.join(args.pool, name))
    dishes, categories, names, bodies = pool("dishes"), pool("categories"), pool("names"), pool("bodies")
    spellings = [line.split("\t") for line in pool("pinyin")]
    rng = random.Random(f"search:{args.seed}")

    def valid(text):
        return text == text.strip() and 0 < len(text) <= 64

    def substrings(texts, low, high, keep):
        # Unbounded random substrings of `low`–`high` characters that `keep` accepts.
        while True:
            text = rng.choice(texts)
            n = rng.randint(low, high)
            if len(text) >= n:
                start = rng.randrange(len(text) - n + 1)
                part = text[start:start + n]
                if keep(part):
                    yield part

    seen_text = "\n".join(names + dishes + categories + bodies).lower()
    seen_pinyin = "\n".join(s for pair in spellings for s in pair)
    used_chars = set(seen_text)

    def ascii_nothing():
        while True:
            word = "".join(rng.choice(string.ascii_lowercase) for _ in range(8))
            if word not in seen_text and word not in seen_pinyin:
                yield word

    def cjk_nothing():
        unused = [chr(c) for c in range(0x4E00, 0x9FA6) if chr(c) not in used_chars]
        while True:
            yield rng.choice(unused) + rng.choice(unused)

    def shuffled(texts):
        texts = sorted(set(texts))
        rng.shuffle(texts)
        return iter(texts)

    sources = {
        "dish": shuffled(dishes),
        "category": shuffled(categories),
        "store name": shuffled(names),
        # What a user types of a name: starts and ends with a letter or digit (not "·宝", not " B").
        "name part": substrings(names, 1, 3, lambda t: t[0].isalnum() and t[-1].isalnum()),
        "pinyin": shuffled(s for s, _ in spellings if s),
        "initials": shuffled(i for _, i in spellings if i),
        "nothing: ASCII": ascii_nothing(),
        "nothing: CJK": cjk_nothing(),
        # Letters only (CJK characters are letters to str.isalpha): words, not "，服".
        "rare": substrings(bodies, 2, 4, str.isalpha),
    }
    chosen = {}
    for name, quota, _ in SEARCH_CLASSES:
        wanted = (args.count - len(chosen)) if quota is None else quota
        got, tries = 0, 0
        # Bounded: random sources may repeat texts already chosen; give up on a class after many misses in a row.
        while got < wanted and tries < 50 * wanted + 1000:
            text = next(sources[name], None)
            if text is None:
                break
            tries += 1
            if valid(text) and text not in chosen:
                chosen[text] = name
                got, tries = got + 1, 0
    if len(chosen) != args.count:
        sys.exit(f"search-texts: composed {len(chosen)} texts, wanted {args.count}")
    with open(args.out, "w", encoding="utf-8") as out:
        for text in chosen:
            out.write(text + "\n")
    # The composition, with each class's share of the Zipf draws (the ranking search-paths and mixed use).
    z = Zipf(list(chosen), args.seed)
    total = z.cumulative[-1]
    weight = {text: (z.cumulative[r] - (z.cumulative[r - 1] if r else 0)) / total for r, text in enumerate(z.ranked)}
    with open(args.summary, "w", encoding="utf-8") as out:
        out.write("| Class of search text | Texts | Share of the draws | Examples | What |\n|---|---:|---:|---|---|\n")
        for name, _, what in SEARCH_CLASSES:
            texts = [t for t, c in chosen.items() if c == name]
            examples = ", ".join(f"`{t}`" for t in texts[:3])
            out.write(f"| {name} | {len(texts)} | {100 * sum(weight[t] for t in texts):.1f} % | {examples} | {what} |\n")
        top = ", ".join(f"`{t}` ({chosen[t]}, {100 * weight[t]:.1f} %)" for t in z.ranked[:5])
        out.write(f"| **all** | **{len(chosen)}** | 100 % | | the five most drawn: {top} |\n")


def search_path(text):
    return "/v1/search?q=" + urllib.parse.quote(text, safe="")


# --- The mixed scenario ------------------------------------------------------------------------------------------
# Percent of requests. Reads: a review platform is read far more than written, and mostly its store pages and their
# review lists (docs/SCALING.md sizes with the same shape); the home page (daily promotions and the feed), search,
# images and the category list follow. Exactly 5 % writes, the commonest first: opening a review (every reader's
# click), then likes and favorites; a written review is the rarest act (one per several hundred page views). Likes
# and favorites are only ever added, so counts never go down under this load and the read-your-writes client
# (ryw.py) can tell a stale count from someone else's write.
MIXED = [
    # kind, percent, method, signed in ("always", or "some": the share that makes SIGNED_IN_READS), a write
    ("store page", 35.0, "GET", "some", False),
    ("store reviews page", 25.0, "GET", "some", False),
    ("daily promotions", 5.0, "GET", "some", False),
    ("featured feed", 5.0, "GET", "always", False),
    ("search", 10.0, "GET", "some", False),
    ("image", 12.0, "GET", "some", False),
    ("categories", 3.0, "GET", "some", False),
    ("post a review", 0.25, "POST", "always", True),
    ("like a review", 1.5, "PUT", "always", True),
    ("favorite a store", 1.25, "PUT", "always", True),
    ("open a review (click)", 2.0, "GET", "always", True),
]
SIGNED_IN_READS = 0.30
REVIEW_PHRASES = ["水煮鱼很嫩，火锅底料香。", "服务热情，上菜很快。", "环境一般，味道不错。", "人均不贵，下次还来。"]


def mixed(args):
    stores = Zipf(read_lines(args.stores), args.seed)
    texts = Zipf(read_lines(args.texts), args.seed)
    first_pages = {}
    for line in read_lines(args.reviews):
        store, review = line.split("\t")
        first_pages.setdefault(store, []).append(review)
    rng = random.Random(f"mixed:{args.seed}")
    plan = {kind: (method, who, write) for kind, _, method, who, write in MIXED}
    kinds = [row[0] for row in MIXED]
    weights = [row[1] for row in MIXED]
    reads = sum(p for _, p, _, _, write in MIXED if not write)
    always_reads = sum(p for _, p, _, who, write in MIXED if who == "always" and not write)
    some_reads = sum(p for _, p, _, who, _ in MIXED if who == "some")
    # The chance a "some" read is signed in, so that SIGNED_IN_READS of all reads are.
    p_some = (SIGNED_IN_READS * reads - always_reads) / some_reads
    counts = {k: [0, 0] for k in kinds}

    def review_of(store):
        reviews = first_pages.get(store)
        while not reviews:  # a store without reviews: draw another
            store = stores.draw(rng)
            reviews = first_pages.get(store)
        return rng.choice(reviews)

    # Exact shares (largest remainder), in a seeded random order: exactly 5 % of the lines are writes.
    quotas = [args.n * w / sum(weights) for w in weights]
    lines = [int(q) for q in quotas]
    for i in sorted(range(len(kinds)), key=lambda i: int(quotas[i]) - quotas[i])[:args.n - sum(lines)]:
        lines[i] += 1
    order = [kind for kind, n in zip(kinds, lines) for _ in range(n)]
    rng.shuffle(order)
    with open(args.out, "w", encoding="utf-8") as out:
        for kind in order:
            method, who, _ = plan[kind]
            signed = who == "always" or (who == "some" and rng.random() < p_some)
            user = rng.randint(1, args.users) if signed else 0
            body = ""
            store = stores.draw(rng)
            if kind == "store page":
                path = f"/v1/stores/{store}"
            elif kind == "store reviews page":
                path = f"/v1/stores/{store}/comments"
            elif kind == "daily promotions":
                path = "/v1/promotions/daily"
            elif kind == "featured feed":
                path = "/v1/feed/featured"
            elif kind == "search":
                path = search_path(texts.draw(rng))
            elif kind == "image":
                path = args.image
            elif kind == "categories":
                path = "/v1/categories"
            elif kind == "post a review":
                path = f"/v1/stores/{store}/comments"
                body = ('{"rating":%d,"body":"bench mixed review %%n: %s"}'
                        % (rng.randint(1, 5), rng.choice(REVIEW_PHRASES)))
            elif kind == "like a review":
                path = f"/v1/comments/{review_of(store)}/like"
            elif kind == "favorite a store":
                path = f"/v1/stores/{store}/favorite"
            else:
                path = f"/v1/comments/{review_of(store)}"
            counts[kind][0] += 1
            counts[kind][1] += signed
            out.write(f"{method}\t{path}\t{user}\t{body}\n")
    total = sum(c for c, _ in counts.values())
    with open(args.summary, "w", encoding="utf-8") as out:
        out.write("| Mixed request | Planned | Lines | Share | Signed in |\n|---|---:|---:|---:|---:|\n")
        for kind, percent, method, _, _ in MIXED:
            n, signed = counts[kind]
            out.write(f"| {kind} (`{method}`) | {percent:g} % | {n} | {100 * n / total:.1f} % | "
                      f"{100 * signed / max(n, 1):.0f} % |\n")
        writes = sum(counts[k][0] for k in kinds if plan[k][2])
        read_signed = sum(counts[k][1] for k in kinds if not plan[k][2])
        out.write(f"| **all** | 100 % | {total} | writes {100 * writes / total:.1f} % | "
                  f"reads {100 * read_signed / (total - writes):.0f} % |\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--n", type=int, default=200_000)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("zipf")
    p.add_argument("--items", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--prefix", default="")
    p.add_argument("--suffix", default="")
    p.add_argument("--stream", default="", help="names an independent draw sequence over the same ranking")
    p.add_argument("--s", type=float, default=S_DEFAULT)
    p = sub.add_parser("search-texts")
    p.add_argument("--pool", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--summary", required=True)
    p.add_argument("--count", type=int, default=10_000)
    p = sub.add_parser("search-paths")
    p.add_argument("--texts", required=True)
    p.add_argument("--out", required=True)
    p = sub.add_parser("mixed")
    for name in ("stores", "reviews", "texts", "image", "out", "summary"):
        p.add_argument(f"--{name}", required=True)
    p.add_argument("--users", type=int, required=True)
    args = parser.parse_args()
    if args.command == "zipf":
        zipf(args)
    elif args.command == "search-texts":
        search_texts(args)
    elif args.command == "search-paths":
        # The search-zipf scenario: the texts drawn with Zipf, URL-encoded.
        z = Zipf(read_lines(args.texts), args.seed)
        rng = random.Random(f"draw:{args.seed}:search")
        with open(args.out, "w", encoding="utf-8") as out:
            for _ in range(args.n):
                out.write(search_path(z.draw(rng)) + "\n")
    else:
        mixed(args)


if __name__ == "__main__":
    main()

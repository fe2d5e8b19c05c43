"""Screenshots of every page of the web client at a phone's and a desktop's size (scripts/screenshots.sh).
Usage: screenshots.py BASE_URL OUT_DIR"""
import sys

import browser_test
from browser_test import browser, sign_in

BASE, OUT = sys.argv[1], sys.argv[2]
browser_test.BASE = BASE
browser_test.EXACT_WIDTH = True  # a phone's 414 px, emulated: headless Chromium's window is at least 500 px wide
# (account or None, [(name, path)]): each page as the account that uses it
PAGES = [
    (None, [("login", "/login"), ("register", "/register"), ("offline", "/offline")]),
    (("User1", "111"), [
        ("home", "/"), ("search", "/search?q=hg"), ("store", "/stores/s001"),
        ("store-popular-times", "/stores/s001#popular-times"),
        ("store-not-recommended", "/stores/s001/not-recommended"), ("comment", "/comments/c007"),
        ("user", "/users/u014"), ("me", "/me"), ("notifications", "/me/notifications"), ("coupons", "/me/coupons"),
        ("pick", "/pick?city=30.6598,104.0633"),
    ]),
    (("Manager4", "111"), [
        ("manage", "/manage"), ("manage-store", "/manage/stores/s001"),
        ("manage-insights", "/manage/stores/s001#insights"),
    ]),
    (("Admin", "chidian-admin"), [
        ("admin", "/admin"), ("admin-trust", "/admin#trust"), ("admin-insights", "/admin?days=90#insights"),
    ]),
]
for size, (width, height) in {"phone": (414, 896), "desktop": (1280, 800)}.items():
    for account, pages in PAGES:
        driver = browser(width, height)
        try:
            if account:
                sign_in(driver, *account)
            for name, path in pages:
                driver.get(BASE + path)
                driver.save_screenshot(f"{OUT}/{name}-{size}.png")
                print(f"screenshots: {name}-{size}.png", flush=True)
        finally:
            driver.quit()

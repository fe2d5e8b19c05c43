"""Screenshots of every page of the web client at a phone's and a desktop's size (scripts/screenshots.sh).
Usage: screenshots.py BASE_URL OUT_DIR"""
import sys

import browser_test
from browser_test import browser, sign_in

BASE, OUT = sys.argv[1], sys.argv[2]
browser_test.BASE = BASE
PAGES = [
    ("home", "/"), ("search", "/search?q=hg"), ("store", "/stores/s001"), ("comment", "/comments/c001"),
    ("user", "/users/u001"), ("login", "/login"), ("register", "/register"),
]
for size, (width, height) in {"phone": (414, 896), "desktop": (1280, 800)}.items():
    driver = browser(width, height)
    try:
        sign_in(driver, "User1", "111")
        for name, path in PAGES:
            driver.get(BASE + path)
            driver.save_screenshot(f"{OUT}/{name}-{size}.png")
            print(f"screenshots: {name}-{size}.png", flush=True)
    finally:
        driver.quit()

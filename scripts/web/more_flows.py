"""Flows for a desktop's width, the keyboard alone, and the installed app offline (browser_test.py runs them).

Imported by browser_test.py once its helpers are defined; BASE is read from it when a flow runs.
"""
import errno
import os
import socket
import subprocess
import time
import urllib.request

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

import browser_test as bt

CHENGDU = "/pick?city=30.6598,104.0633"
# Each role's pages at a desktop's width (the other flows see them at a phone's); axe audits each.
DESKTOP_PAGES = [
    (None, ["/", "/stores/s001", "/search?q=hg", "/comments/c007", "/users/u014", CHENGDU, "/login", "/register",
            "/offline"]),
    (("User1", "111"), ["/", "/stores/s001", "/comments/c007", "/users/u014", "/me", "/me/notifications",
                        "/me/coupons", CHENGDU]),
    (("Manager4", "111"), ["/manage", "/manage/stores/s001", "/stores/s001", "/"]),
    (("Admin", "chidian-admin"), ["/admin", "/stores/s001", "/"]),
]


def sign_out(driver):
    bt.load(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/logout'] button"))
    assert not driver.find_elements(By.CSS_SELECTOR, "nav.account a[href='/me']")


def every_page_at_desktop_width(driver):
    for account, paths in DESKTOP_PAGES:
        if account:
            bt.sign_in(driver, *account)
        for path in paths:
            driver.get(bt.BASE + path)
            assert driver.find_element(By.TAG_NAME, "h1"), path
        if account:
            sign_out(driver)
    bt.no_console_errors(driver)


# Whether the focused element shows a ring, and whether what is at its middle (held inside the window) is the element
# itself: not the sticky header over it (Shift+Tab scrolls up to it) nor anything else.
FOCUS_SEEN = """
const e = arguments[0], s = getComputedStyle(e), r = e.getBoundingClientRect();
const x = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
const y = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
const hit = document.elementFromPoint(x, y);
return [s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2, !!hit && (e.contains(hit) || hit.contains(e))];
"""


def focus_outline(driver):
    """The focused element, and whether it shows a focus ring a sighted keyboard user can see (uncovered)."""
    element = driver.switch_to.active_element
    ring, uncovered = driver.execute_script(FOCUS_SEEN, element)
    return element, ring and uncovered


def tab_to(driver, wanted, limit=60, backwards=False):
    """Presses Tab (Shift+Tab when `backwards`) until `wanted(element)`; every element passed on the way must show
    its focus."""
    for _ in range(limit):
        if backwards:
            ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
        else:
            ActionChains(driver).send_keys(Keys.TAB).perform()
        element, visible = focus_outline(driver)
        described = element.get_attribute("outerHTML")[:120]
        assert visible, f"no visible focus on {described}"
        if wanted(element):
            return element
    raise AssertionError("never reached by " + ("Shift+Tab" if backwards else "Tab"))


def press(driver, key):
    """A key sent to whatever has the focus, as a keyboard would."""
    driver.switch_to.active_element.send_keys(key)


def keyboard_only_claims_a_coupon(driver):
    """Manager4 offers a coupon on s001; User1 reaches its 领取 with Shift+Tab from the page's start (the coupons
    are near its end; every stop shows its focus, none under the sticky header) and claims it with Space."""
    title = "键盘券 满80减8"
    bt.sign_in(driver, "Manager4", "111")
    driver.get(f"{bt.BASE}/manage/stores/s001")
    for field, value in (("coupon-title", title), ("coupon-value", "8"), ("coupon-min", "80"),
                         ("coupon-stock", "20")):
        driver.find_element(By.ID, field).send_keys(value)
    bt.load(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/manage/stores/s001/coupons'] button"))
    assert bt.text(driver, "[role=status]") == "优惠券已发布"
    sign_out(driver)
    bt.sign_in(driver, "User1", "111")
    driver.get(f"{bt.BASE}/stores/s001")

    def claim_button(element):
        return element.text == "领取" and title in element.find_element(By.XPATH, "ancestor::li[1]").text

    tab_to(driver, claim_button, limit=150, backwards=True)
    press(driver, Keys.SPACE)
    WebDriverWait(driver, 10).until(ec.url_contains("/me/coupons"))
    assert bt.text(driver, "[role=status]") == "领到了！到店出示券码即可使用"
    fresh = bt.text(driver, ".claim.fresh")
    assert title in fresh, fresh
    bt.no_console_errors(driver)


def keyboard_only_posts_a_review_with_a_photo(driver):
    """User1 writes a review on s002 with the keyboard alone: Tab to the stars (Space picks ★★★★★, the first), past
    the sub-ratings to 人均 and the text (typed), to the photo field (selenium hands the focused field the file, as
    the picker would) and to 发布 (Enter). Every stop shows its focus; the review then shows with its photo."""
    body = "键盘写的评价：不用鼠标也能发"
    bt.sign_in(driver, "User1", "111")
    driver.get(f"{bt.BASE}/stores/s002")
    tab_to(driver, lambda e: e.get_attribute("name") == "rating", limit=150)
    press(driver, Keys.SPACE)
    assert driver.switch_to.active_element.get_attribute("value") == "5"
    assert driver.switch_to.active_element.is_selected()
    tab_to(driver, lambda e: e.get_attribute("name") == "pricePerPerson", limit=5)
    press(driver, "88")
    tab_to(driver, lambda e: e.get_attribute("id") == "body", limit=1)
    press(driver, body)
    tab_to(driver, lambda e: e.get_attribute("id") == "photos", limit=1)
    press(driver, os.path.abspath("seed/images/c007_1.png"))
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#previews img"))
    assert driver.switch_to.active_element.get_attribute("id") == "photos"  # choosing a file keeps the focus
    tab_to(driver, lambda e: e.get_attribute("type") == "submit" and e.text == "发布", limit=1)
    press(driver, Keys.ENTER)
    WebDriverWait(driver, 10).until(ec.url_contains("/comments/"))
    assert bt.text(driver, "article.comment .body") == body
    assert "人均 ¥88" in bt.text(driver, "article.comment")
    assert driver.find_element(By.CSS_SELECTOR, "article.comment .stars").get_attribute("aria-label").startswith("5")
    shown = driver.find_elements(By.CSS_SELECTOR, "article.comment .photos img")
    assert len(shown) == 1
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return arguments[0].naturalWidth", shown[0]) > 0)
    bt.no_console_errors(driver)


def keyboard_only_picks_and_reads_a_chart(driver):
    """今天吃点啥 and 换一个 with Tab and Enter alone (every stop on the way shows its focus), then a chart's
    table on a managed store's page, shown when the keyboard reaches it."""
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": bt.BASE, "permissions": ["geolocation"]})
    driver.execute_cdp_cmd("Emulation.setGeolocationOverride",
                           {"latitude": 30.6590, "longitude": 104.0810, "accuracy": 10})
    driver.get(bt.BASE + "/")
    tab_to(driver, lambda e: e.get_attribute("id") == "pick-button")
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    WebDriverWait(driver, 15).until(ec.url_contains("/pick?"))
    first = bt.text(driver, ".pick .store-name")
    again = tab_to(driver, lambda e: e.text == "换一个")
    again.send_keys(Keys.ENTER)
    WebDriverWait(driver, 10).until(ec.url_contains("skip="))
    assert bt.text(driver, ".pick .store-name") != first
    # a chart's figures: Tab from the insights' last link reaches the first chart's table, which then shows
    bt.sign_in(driver, "Manager4", "111")
    driver.get(bt.BASE + "/manage/stores/s001")
    driver.execute_script("document.querySelector('.insights .section-head nav a:last-child').focus()")
    table = tab_to(driver, lambda e: "chart-table" in (e.get_attribute("class") or ""), limit=1)
    assert table.size["width"] > 100 and table.size["height"] > 50, table.size
    assert table.find_elements(By.CSS_SELECTOR, "tbody tr")
    bt.no_console_errors(driver)


class OwnServer:
    """A `chidian serve` of this flow's own on the test's database, so it can stop serving: Chromium's offline
    emulation does not reach the service worker's own fetches."""

    def __init__(self):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.process = None

    def start(self):
        binary = os.environ.get("CHIDIAN_BIN", ".build/debug/chidian")
        log = open(os.path.join(bt.OUT, "offline-server.log"), "ab")
        deadline = time.monotonic() + 300
        while True:
            try:
                self.process = subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--port", str(self.port)],
                                                stdout=log, stderr=log)
                break
            except OSError as error:  # ETXTBSY: a build in the same checkout is linking the binary just now
                if error.errno != errno.ETXTBSY or time.monotonic() > deadline:
                    raise
                time.sleep(1)
        while True:  # a loaded machine starts slowly; the process ending is the failure
            try:
                urllib.request.urlopen(self.base + "/health", timeout=5)
                return self.base
            except OSError:
                assert self.process.poll() is None, "the flow's server did not start"
                time.sleep(0.1)

    def stop(self):
        if self.process:  # killed: a graceful stop would wait for the browser's idle connections
            self.process.kill()
            self.process.wait(30)
            self.process = None


def controlled(driver):
    """Waits until the service worker controls the page (it registers on every page, and claims it)."""
    WebDriverWait(driver, 20).until(
        lambda d: d.execute_script("return !!navigator.serviceWorker.controller"))


def heading(driver):
    return bt.text(driver, "h1")


def installable_and_readable_offline(driver):
    """The manifest passes Chromium's installability check; a page seen once reads offline and an unseen one is
    the offline page; after User1 signs out and User2 signs in, none of User1's pages is served from the cache."""
    server = OwnServer()
    try:
        base = server.start()
        driver.get(base + "/")
        controlled(driver)
        assert driver.execute_cdp_cmd("Page.getInstallabilityErrors", {})["installabilityErrors"] == []
        manifest = driver.execute_cdp_cmd("Page.getAppManifest", {})
        assert manifest["errors"] == [] and manifest["url"] == base + "/manifest.webmanifest", manifest
        driver.get(base + "/stores/s001")
        seen = heading(driver)
        server.stop()
        driver.get(base + "/stores/s001")
        assert heading(driver) == seen
        driver.get(base + "/stores/s009")
        assert heading(driver) == "离线"
        assert driver.find_element(By.CSS_SELECTOR, "a[data-retry]").is_displayed()
        # User1's pages are kept for User1 (a store page) or never (their own pages, no-store) ...
        server.start()
        bt.sign_in(driver, "User1", "111", base=base)
        controlled(driver)
        driver.get(base + "/stores/s002")
        driver.get(base + "/me")
        server.stop()
        driver.get(base + "/stores/s002")
        assert bt.text(driver, "nav.account a[href='/me']") == "User1"
        driver.get(base + "/me")
        assert heading(driver) == "离线"
        # ... and gone once User1 signs out and User2 signs in (Clear-Site-Data)
        server.start()
        driver.get(base + "/")
        sign_out(driver)
        bt.sign_in(driver, "User2", "111", base=base)
        controlled(driver)
        server.stop()
        for path in ("/stores/s002", "/me"):
            driver.get(base + path)
            assert heading(driver) == "离线" and "User1" not in driver.page_source, path
    finally:
        server.stop()


MORE_FLOWS = [
    (every_page_at_desktop_width, {"width": 1280, "height": 900}),
    (keyboard_only_picks_and_reads_a_chart, {}),
    (keyboard_only_claims_a_coupon, {"width": 375, "height": 812}),
    (keyboard_only_posts_a_review_with_a_photo, {"width": 375, "height": 812}),
    (installable_and_readable_offline, {}),
]

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


def focus_outline(driver):
    """The focused element, and whether it shows a focus ring a sighted keyboard user can see."""
    element = driver.switch_to.active_element
    style = driver.execute_script(
        "const s = getComputedStyle(arguments[0]); return [s.outlineStyle, parseFloat(s.outlineWidth)]", element)
    return element, style[0] != "none" and style[1] >= 2


def tab_to(driver, wanted, limit=60):
    """Presses Tab until `wanted(element)`; every element passed on the way must show its focus."""
    for _ in range(limit):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        element, visible = focus_outline(driver)
        described = element.get_attribute("outerHTML")[:120]
        assert visible, f"no visible focus on {described}"
        if wanted(element):
            return element
    raise AssertionError("never reached by Tab")


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
    (installable_and_readable_offline, {}),
]

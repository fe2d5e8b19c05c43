"""The web client's flows in headless Chromium (scripts/web-test.sh runs this against a seeded server).

Each flow asserts what the page shows, not only that it loaded; a failing flow leaves a screenshot in OUT. Every
page a flow reaches is also audited by axe-core (axe_check.py): a violation of impact moderate or above fails the run.
Usage: browser_test.py BASE_URL OUT_DIR
"""
import os
import sys
import tempfile
import time
import traceback
import zipfile

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

import axe_check

AUDIT = False  # set by main(): every page a flow reaches is audited (screenshots.py leaves it off)
# Set by main(): a phone's width is emulated, since headless Chromium's window is at least 500 px wide.
EXACT_WIDTH = False
BASE = ""  # set by main(), or by a script that imports these flows
OUT = "."  # set by main(): where screenshots go
REPORTED = []  # (path, body) of the review user1's flow reports, for the admin's flow
DOWNLOADS = tempfile.mkdtemp(prefix="chidian-web-downloads-")  # where the export flow's browser saves its file


class AuditedChrome(webdriver.Chrome):
    """Chrome whose every `get` is audited by axe (once per kind of page, width and viewer)."""

    def get(self, url):
        super().get(url)
        if AUDIT:
            axe_check.audit(self)


def browser(width=414, height=896, language="zh-CN", downloads=None):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 f"--window-size={width},{height}", f"--lang={language}"):
        options.add_argument(flag)
    prefs = {"intl.accept_languages": language}
    if downloads:
        prefs.update({"download.default_directory": downloads, "download.prompt_for_download": False})
    options.add_experimental_option("prefs", prefs)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = AuditedChrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(30)
    if EXACT_WIDTH and width < 500:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    return driver


def text(driver, css):
    """The text of the first element matching `css`, waiting for it: a click that submits a form returns before
    the next page has loaded."""
    return WebDriverWait(driver, 10).until(ec.presence_of_element_located((By.CSS_SELECTOR, css))).text


def load(driver, element):
    """Clicks `element` and waits until the page it leads to has replaced this one."""
    page = driver.find_element(By.TAG_NAME, "html")
    element.click()

    def replaced(_):
        try:
            page.is_enabled()
            return False
        except WebDriverException:  # stale, or "does not belong to the document" mid-navigation
            return True

    WebDriverWait(driver, 10).until(replaced)
    if AUDIT:
        axe_check.audit(driver)


def follow(driver, link_text, url_part):
    load(driver, driver.find_element(By.LINK_TEXT, link_text))
    WebDriverWait(driver, 10).until(ec.url_contains(url_part))


def first_card_category(driver):
    # "author · category · date" under each card's heading
    return text(driver, "article.comment .meta").split(" · ")[1]


def no_console_errors(driver, expected=()):
    """No script error, CSP violation or failed load, except the statuses a flow asked for (`expected` paths)."""
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"
              and not any(f"{BASE}{path} - " in entry["message"] for path in expected)]
    assert not errors, errors


def sign_in(driver, name, password, base=None):
    driver.get(f"{base or BASE}/login")
    driver.find_element(By.ID, "name").send_keys(name)
    driver.find_element(By.ID, "password").send_keys(password)
    load(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/login'] button"))
    assert text(driver, "nav.account a[href='/me']") == name


def visitor_clicks_rerank_the_feed(driver):
    driver.get(BASE + "/")
    assert driver.find_element(By.TAG_NAME, "h2").text == "每日促销"
    assert len(driver.find_elements(By.CSS_SELECTOR, "section[aria-labelledby=daily] .store-card")) == 10
    # 猜你喜欢 for a new visitor: popular, well-rated stores
    assert driver.find_elements(By.CSS_SELECTOR, "section[aria-labelledby=for-you] .store-card")
    # cold start: no interests yet, so no chips
    assert driver.find_elements(By.CSS_SELECTOR, ".chip") == []
    # three hot-pot reviews, opened from a hot-pot store's page
    driver.get(BASE + "/search?q=" + "火锅")
    load(driver, driver.find_element(By.CSS_SELECTOR, ".results .store-card"))
    links = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "article.comment h3 a")
             if not a.find_elements(By.CSS_SELECTOR, ".badge")]
    assert len(links) >= 3, links
    for link in links[:3]:
        driver.get(link)
        assert driver.find_element(By.CSS_SELECTOR, "article.comment .body").text
    # The server learns beside the request (a viewer's interests may lag 5 s): refresh until they show; the bound
    # is only there so a broken server fails rather than hangs.
    deadline = time.monotonic() + 60
    while True:
        driver.get(BASE + "/")
        load(driver, driver.find_element(By.CSS_SELECTOR, "[data-refresh]"))
        chips = [chip.text for chip in driver.find_elements(By.CSS_SELECTOR, ".chip")]
        if (chips and chips[0] == "火锅") or time.monotonic() > deadline:
            break
        time.sleep(0.25)
    assert chips and chips[0] == "火锅", chips
    assert first_card_category(driver) == "火锅", first_card_category(driver)
    no_console_errors(driver)


def user1_searches_likes_and_favorites(driver):
    sign_in(driver, "User1", "111")
    for query, expected in (("火锅", "蜀香火锅·春熙路店"), ("hg", "蜀香火锅·春熙路店")):
        box = driver.find_element(By.ID, "q")
        box.clear()
        box.send_keys(query + "\n")
        WebDriverWait(driver, 10).until(ec.title_contains(query))
        names = [n.text for n in driver.find_elements(By.CSS_SELECTOR, ".results .store-name")]
        assert expected in names, (query, names)
        assert "类型: 火锅" in text(driver, ".results"), query
    load(driver, driver.find_elements(By.CSS_SELECTOR, ".results .store-card")[0])
    store = text(driver, "h1")
    store_url = driver.current_url
    assert store, "the store page has no name"
    assert driver.find_elements(By.CSS_SELECTOR, ".rating .stars"), "no rating stars"
    # like a review that is not User1's (the page offers no button on one's own)
    form = driver.find_element(By.CSS_SELECTOR, "form[data-like][action$='/like']")
    action = form.get_attribute("action")
    count = form.find_element(By.XPATH, "..").find_element(By.CSS_SELECTOR, ".like-count")
    before = int(count.get_attribute("data-count"))
    form.find_element(By.TAG_NAME, "button").click()
    WebDriverWait(driver, 10).until(
        lambda d: form.find_element(By.TAG_NAME, "button").get_attribute("aria-pressed") == "true")
    assert int(count.get_attribute("data-count")) == before + 1
    driver.refresh()
    liked = driver.find_element(By.CSS_SELECTOR, f"form[action='{action.replace('/like', '/unlike')[len(BASE):]}']")
    assert liked.find_element(By.TAG_NAME, "button").get_attribute("aria-pressed") == "true"
    # a review with a photo, previewed before it is sent
    photo = os.path.abspath("seed/images/c007_1.png")
    rating = driver.find_element(By.CSS_SELECTOR, "input[name=rating][value='4']")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", rating)
    rating.click()
    driver.find_element(By.CSS_SELECTOR, "select[name=taste] option[value='5']").click()
    driver.find_element(By.NAME, "pricePerPerson").send_keys("95")
    driver.find_element(By.ID, "body").send_keys("浏览器里写的评价：毛肚很脆")
    driver.find_element(By.ID, "photos").send_keys(photo)
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#previews img"))
    load(driver, driver.find_element(By.CSS_SELECTOR, "section.write button[type=submit]"))
    WebDriverWait(driver, 10).until(ec.url_contains("/comments/"))
    assert text(driver, "article.comment .body") == "浏览器里写的评价：毛肚很脆"
    assert "人均 ¥95" in text(driver, "article.comment")
    shown = driver.find_elements(By.CSS_SELECTOR, "article.comment .photos img")
    assert len(shown) == 1 and driver.execute_script("return arguments[0].naturalWidth", shown[0]) > 0
    # report another user's review from its page
    driver.get(store_url)
    other = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "article.comment h3 a")
             if "浏览器里写的评价" not in a.find_element(By.XPATH, "../../..").text][0]
    driver.get(other)
    driver.find_element(By.CSS_SELECTOR, "details.report summary").click()
    driver.find_element(By.CSS_SELECTOR, "input[name=reason][value=offensive]").click()
    driver.find_element(By.ID, "report-note").send_keys("browser test report")
    load(driver, driver.find_element(By.CSS_SELECTOR, "details.report button[type=submit]"))
    assert text(driver, "[role=status]") == "已举报，管理员会尽快处理"
    REPORTED.append((other[len(BASE):], text(driver, "article.comment .body")))
    # favorite and back
    driver.get(store_url)
    button = driver.find_element(By.CSS_SELECTOR, ".favorite button")
    was = button.get_attribute("aria-pressed") == "true"
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    load(driver, button)
    now = driver.find_element(By.CSS_SELECTOR, ".favorite button").get_attribute("aria-pressed")
    assert now == ("false" if was else "true"), (was, now)
    no_console_errors(driver)


def manager4_replies_posts_a_notice_and_buys_promotion(driver):
    sign_in(driver, "Manager4", "111")
    follow(driver, "商家管理", "/manage")
    stores = driver.find_elements(By.CSS_SELECTOR, ".managed > li")
    assert len(stores) == 7, len(stores)
    # the store with the least ad spend, so that buying moves it into the daily promotions
    spends = [(int(li.find_element(By.CSS_SELECTOR, ".ad-spend").text), li) for li in stores]
    spend, target = min(spends, key=lambda pair: pair[0])
    name = target.find_element(By.CSS_SELECTOR, ".store-name").text
    store_id = target.find_element(By.CSS_SELECTOR, "a.store-card").get_attribute("href").rsplit("/", 1)[1]
    amount = target.find_element(By.NAME, "amount")
    amount.send_keys("900000")
    load(driver, target.find_element(By.CSS_SELECTOR, "form button"))
    assert text(driver, "[role=status]") == "广告费已增加"
    after = driver.find_element(By.CSS_SELECTOR, f"a.store-card[href='/stores/{store_id}']")
    assert int(after.find_element(By.XPATH, "..").find_element(By.CSS_SELECTOR, ".ad-spend").text) == spend + 900000
    driver.get(BASE + "/")
    daily = [n.text for n in driver.find_elements(By.CSS_SELECTOR, ".carousel .store-name")]
    assert daily and daily[0] == name, (name, daily)
    # a notice on that store, from its page
    driver.get(f"{BASE}/stores/{store_id}")
    assert not driver.find_elements(By.CSS_SELECTOR, "input[name=rating]")
    driver.find_element(By.ID, "body").send_keys("本周末营业到凌晨两点")
    load(driver, driver.find_element(By.CSS_SELECTOR, "section.write button[type=submit]"))
    WebDriverWait(driver, 10).until(ec.url_contains("/comments/"))
    assert "通知" in text(driver, "article.comment h3")
    # a reply to a review of one of their stores
    driver.get(f"{BASE}/manage/stores/s001")
    form = driver.find_elements(By.CSS_SELECTOR, "form.reply-form")[0]
    box = form.find_element(By.TAG_NAME, "textarea")
    box.clear()
    box.send_keys("感谢光临，下次送甜品")
    load(driver, form.find_element(By.TAG_NAME, "button"))
    driver.get(f"{BASE}/stores/s001")
    assert "感谢光临，下次送甜品" in text(driver, "main")
    no_console_errors(driver)


def admin_hides_the_reported_review(driver):
    assert REPORTED, "user1's flow reports a review first"
    path, body = REPORTED[0]
    sign_in(driver, "Admin", "chidian-admin")
    follow(driver, "管理后台", "/admin")
    item = [i for i in driver.find_elements(By.CSS_SELECTOR, ".queue-item") if body in i.text][0]
    assert "冒犯内容：browser test report" in item.text
    load(driver, item.find_element(By.CSS_SELECTOR, "button[value=hide]"))
    assert text(driver, "[role=status]") == "已保存"
    driver.get(BASE + path)
    assert "评论不存在" in text(driver, "main")
    driver.get(BASE + "/")  # gone from the feed too
    assert body not in text(driver, "main")
    no_console_errors(driver, expected=[path])


def admin_judges_a_review_not_recommended_and_back(driver):
    """An admin judges a review not recommended from its page: its store lists it apart behind "1 条未推荐的评价",
    the admins' queue of suspicious reviews shows it, and 恢复推荐 there counts it again."""
    body = "地三鲜中规中矩"
    sign_in(driver, "Admin", "chidian-admin")
    driver.get(f"{BASE}/comments/c002")
    load(driver, driver.find_element(By.CSS_SELECTOR, "form.judge button[value=false]"))
    assert text(driver, "[role=status]") == "已保存"
    driver.get(f"{BASE}/stores/s012")
    assert body not in text(driver, "main")
    follow(driver, "1 条未推荐的评价", "/stores/s012/not-recommended")
    assert body in text(driver, "main")
    driver.get(f"{BASE}/admin")
    item = [i for i in driver.find_elements(By.CSS_SELECTOR, ".trust-item") if body in i.text][0]
    load(driver, item.find_element(By.CSS_SELECTOR, "button[value=true]"))
    assert text(driver, "[role=status]") == "已保存"
    driver.get(f"{BASE}/stores/s012")
    main = text(driver, "main")
    assert body in main and "未推荐的评价" not in main
    no_console_errors(driver)


def user1_sees_the_unread_count_rise_when_the_store_replies(driver):
    """The header's unread count is live: it rises on an open page when the store answers User1's review."""
    sign_in(driver, "User1", "111")
    driver.get(f"{BASE}/stores/s001")
    body = "浏览器测试：等商家回复"
    rating = driver.find_element(By.CSS_SELECTOR, "input[name=rating][value='4']")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", rating)
    rating.click()
    driver.find_element(By.ID, "body").send_keys(body)
    load(driver, driver.find_element(By.CSS_SELECTOR, "section.write button[type=submit]"))
    WebDriverWait(driver, 10).until(ec.url_contains("/comments/"))
    badge = driver.find_element(By.CSS_SELECTOR, "[data-unread]")
    WebDriverWait(driver, 10).until(lambda _: badge.get_attribute("data-count") is not None)
    before = int(badge.get_attribute("data-count"))
    manager = browser()
    try:
        sign_in(manager, "Manager4", "111")
        manager.get(f"{BASE}/manage/stores/s001")
        forms = [form for form in manager.find_elements(By.CSS_SELECTOR, "form.reply-form")
                 if body in form.find_element(By.XPATH, "preceding-sibling::article[1]").text]
        assert forms, "the manager's page lists User1's new review"
        forms[0].find_element(By.TAG_NAME, "textarea").send_keys("谢谢，欢迎再来")
        load(manager, forms[0].find_element(By.TAG_NAME, "button"))
    finally:
        manager.quit()
    # no reload: the stream tells the page, which reads the count again
    WebDriverWait(driver, 15).until(lambda _: int(badge.get_attribute("data-count")) > before)
    assert badge.text == badge.get_attribute("data-count") and badge.is_displayed()
    driver.get(f"{BASE}/me/notifications")
    assert "商家回复了你的评价" in text(driver, "ul.notifications")
    no_console_errors(driver)


def wrong_password_shows_the_original_message(driver):
    driver.get(f"{BASE}/login")
    driver.find_element(By.ID, "name").send_keys("User1")
    driver.find_element(By.ID, "password").send_keys("not the password")
    load(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/login'] button"))
    assert text(driver, "[role=alert]") == "密码错误", text(driver, "[role=alert]")
    assert driver.find_element(By.ID, "name").get_attribute("value") == "User1"
    assert driver.find_element(By.ID, "password").get_attribute("value") == ""


def english_when_preferred(driver):
    driver.get(BASE + "/")
    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"
    assert driver.find_element(By.TAG_NAME, "h2").text == "Daily promotions"


def set_round_the_clock(driver, store):
    """Manager4 writes a store's hours as people do on its manage page, so the pick does not depend on the hour."""
    driver.get(f"{BASE}/manage/stores/{store}")
    hours = driver.find_element(By.ID, "store-hours")
    hours.clear()
    hours.send_keys("每天 00:00-00:00")
    location = driver.find_element(By.ID, "store-location").get_attribute("value")
    assert location.startswith("30.6"), location  # the demo store's position near its Chengdu address
    load(driver, driver.find_element(By.CSS_SELECTOR, f"form[action='/manage/stores/{store}'] button[type=submit]"))
    assert "saved=edit" in driver.current_url, driver.current_url
    assert driver.find_element(By.ID, "store-hours").get_attribute("value") == "每天 00:00-00:00"


def picks_near_chunxi_road_and_another(driver):
    sign_in(driver, "Manager4", "111")
    for store in ("s001", "s002"):
        set_round_the_clock(driver, store)
    # Chromium is told where it is (Chunxi Road, Chengdu) and may say so.
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": BASE, "permissions": ["geolocation"]})
    driver.execute_cdp_cmd("Emulation.setGeolocationOverride",
                           {"latitude": 30.6590, "longitude": 104.0810, "accuracy": 10})
    driver.get(BASE + "/")
    load(driver, driver.find_element(By.ID, "pick-button"))
    WebDriverWait(driver, 10).until(ec.url_contains("/pick?"))
    assert "near=30.659" in driver.current_url, driver.current_url
    first = WebDriverWait(driver, 10).until(
        ec.presence_of_element_located((By.CSS_SELECTOR, "[data-pick]"))).get_attribute("data-pick")
    reasons = [item.text for item in driver.find_elements(By.CSS_SELECTOR, ".reasons li")]
    assert any(reason.endswith(" m") or reason.endswith(" km") for reason in reasons), reasons
    assert any(reason.startswith("营业") or reason == "24 小时营业" for reason in reasons), reasons
    driver.save_screenshot(f"{OUT}/pick.png")
    follow(driver, "换一个", "skip=")
    second = text(driver, ".pick .store-name") and driver.find_element(
        By.CSS_SELECTOR, "[data-pick]").get_attribute("data-pick")
    assert second and second != first, (first, second)
    no_console_errors(driver)


# Each viewer's pages at 375 px: signed in, a page has forms (a file field's own width widened them once).
PHONE_PAGES = [
    (None, ["/", "/stores/s001", "/search?q=hg", "/login", "/register", "/pick?city=30.6598,104.0633", "/offline"]),
    (("User1", "111"), ["/stores/s001", "/comments/c007", "/me", "/me/coupons", "/me/notifications"]),
    (("Manager4", "111"), ["/manage", "/manage/stores/s001", "/stores/s001"]),
    (("Admin", "chidian-admin"), ["/admin", "/stores/s001"]),
]


def fits_a_phone(driver):
    """No page scrolls sideways at a real phone's 375 px, for any viewer."""
    for account, paths in PHONE_PAGES:
        if account:
            sign_in(driver, *account)
        for path in paths:
            driver.get(BASE + path)
            overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, (account and account[0], path, overflow)
        if account:
            load(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/logout'] button"))


def a_new_user_exports_then_deletes_their_account(driver):
    """我的数据 on /me: the export downloads a ZIP holding data.json; 注销账号 asks for the password and a ticked
    confirmation, then signs out to the home page with a message, and the name no longer signs in."""
    name, password = "注销测试", "delete me please"
    driver.get(f"{BASE}/register")
    driver.find_element(By.ID, "name").send_keys(name)
    driver.find_element(By.ID, "password").send_keys(password)
    load(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/register'] button"))
    assert text(driver, "nav.account a[href='/me']") == name
    driver.get(f"{BASE}/me")
    folder = DOWNLOADS
    driver.find_element(By.CSS_SELECTOR, "a[href='/me/export']").click()
    deadline = time.monotonic() + 30
    archives = []
    while time.monotonic() < deadline:
        archives = [f for f in os.listdir(folder) if f.endswith(".zip")]
        if archives:
            break
        time.sleep(0.2)
    assert archives, os.listdir(folder)
    with zipfile.ZipFile(os.path.join(folder, archives[0])) as archive:
        assert archive.testzip() is None
        data = archive.read("data.json").decode()
    assert name in data, data[:200]

    # Without the confirmation ticked the browser keeps the form; with a wrong password the page says so.
    driver.find_element(By.ID, "delete-password").send_keys("not my password")
    driver.find_element(By.CSS_SELECTOR, "form[action='/me/delete'] input[name=confirm]").click()
    load(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/me/delete'] button"))
    assert text(driver, "form[action='/me/delete'] [role=alert]") == "密码错误"
    driver.find_element(By.ID, "delete-password").send_keys(password)
    driver.find_element(By.CSS_SELECTOR, "form[action='/me/delete'] input[name=confirm]").click()
    load(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/me/delete'] button"))
    assert text(driver, "main [role=status]") == "账号已注销，你的数据已删除。"
    assert not driver.find_elements(By.CSS_SELECTOR, "nav.account a[href='/me']")
    driver.get(f"{BASE}/login")
    driver.find_element(By.ID, "name").send_keys(name)
    driver.find_element(By.ID, "password").send_keys(password)
    load(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/login'] button"))
    assert text(driver, "[role=alert]") == "用户名不存在"
    no_console_errors(driver, expected=("/me/delete", "/login"))


def manager4_offers_a_coupon_user2_claims_it_and_it_is_redeemed(driver):
    """领券 at a phone's width: the offer form, 领取 on the store page, 我的券 with the code, redemption."""
    sign_in(driver, "Manager4", "111")
    driver.get(f"{BASE}/manage/stores/s001")
    driver.find_element(By.ID, "coupon-title").send_keys("浏览器券 满100减15")
    driver.find_element(By.ID, "coupon-value").send_keys("15")
    driver.find_element(By.ID, "coupon-min").send_keys("100")
    driver.find_element(By.ID, "coupon-stock").send_keys("50")
    load(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/manage/stores/s001/coupons'] button"))
    assert text(driver, "[role=status]") == "优惠券已发布"
    assert "浏览器券 满100减15" in text(driver, "#coupons .coupon-list")
    driver.save_screenshot(f"{OUT}/coupon-manage.png")
    manager = driver
    diner = browser(width=375, height=812)
    try:
        sign_in(diner, "User2", "111")
        diner.get(f"{BASE}/stores/s001")
        coupon = [li for li in diner.find_elements(By.CSS_SELECTOR, "#coupons .coupon")
                  if "浏览器券 满100减15" in li.text][0]
        load(diner, coupon.find_element(By.CSS_SELECTOR, "button"))
        WebDriverWait(diner, 10).until(ec.url_contains("/me/coupons"))
        assert text(diner, "[role=status]") == "领到了！到店出示券码即可使用"
        code = text(diner, ".claim.fresh .claim-code")
        assert len(code) == 12 and all(c in "23456789ABCDEFGHJKLMNPQRSTUVWXYZ" for c in code), code
        diner.save_screenshot(f"{OUT}/coupon-mine.png")
        no_console_errors(diner)
    finally:
        diner.quit()
    manager.get(f"{BASE}/manage/stores/s001")
    manager.find_element(By.ID, "redeem-code").send_keys(code.lower())
    load(manager, manager.find_element(By.CSS_SELECTOR, "#redeem button"))
    assert text(manager, "#redeem [role=status]") == f"已核销 {code}"
    no_console_errors(manager)


def main():
    global AUDIT, BASE, EXACT_WIDTH, OUT
    BASE, out = sys.argv[1], sys.argv[2]
    OUT, AUDIT, EXACT_WIDTH = out, True, True
    failed = 0
    for flow, settings in FLOWS:
        driver = browser(**settings)
        try:
            flow(driver)
            print(f"web: {flow.__name__} passed", flush=True)
        except Exception:
            failed += 1
            driver.save_screenshot(f"{out}/{flow.__name__}.png")
            print(f"web: {flow.__name__} FAILED", flush=True)
            traceback.print_exc()
        finally:
            driver.quit()
    print(f"web: {len(FLOWS) - failed} passed, {failed} failed", flush=True)
    for line in axe_check.report():
        print(line, flush=True)
    print(f"web: axe-core audited {len(axe_check.SEEN)} pages: {len(axe_check.FINDINGS)} violations of impact "
          "moderate or above", flush=True)
    return 1 if failed or axe_check.FINDINGS else 0


FLOWS = [
    (visitor_clicks_rerank_the_feed, {}),
    (user1_searches_likes_and_favorites, {}),
    (manager4_replies_posts_a_notice_and_buys_promotion, {}),
    (admin_hides_the_reported_review, {}),
    (admin_judges_a_review_not_recommended_and_back, {}),
    (user1_sees_the_unread_count_rise_when_the_store_replies, {}),
    (wrong_password_shows_the_original_message, {}),
    (english_when_preferred, {"language": "en-US"}),
    (picks_near_chunxi_road_and_another, {}),
    (fits_a_phone, {"width": 375, "height": 812}),
    (manager4_offers_a_coupon_user2_claims_it_and_it_is_redeemed, {"width": 375, "height": 812}),
    (a_new_user_exports_then_deletes_their_account, {"downloads": DOWNLOADS}),
]

if __name__ == "__main__":
    import browser_test  # run as the module more_flows imports, not as a second copy named __main__

    sys.exit(browser_test.main())

# Accessibility and installability (more_flows.py imports the helpers above).
from more_flows import MORE_FLOWS  # noqa: E402

FLOWS += MORE_FLOWS

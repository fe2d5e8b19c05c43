// Progressive enhancement only: every page works without this file.
// Likes post in the background (the form's CSRF field travels as the X-CSRF-Token header) and update in place.
for (const form of document.querySelectorAll("form[data-like]")) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button");
    const liked = button.getAttribute("aria-pressed") === "true";
    const response = await fetch(form.action, {
      method: "POST",
      headers: { "X-CSRF-Token": form.elements.csrf.value },
      redirect: "manual",
    });
    if (response.type !== "opaqueredirect" && !response.ok) {
      form.submit(); // let the server's page say what went wrong
      return;
    }
    const count = form.parentElement.querySelector(".like-count");
    const now = !liked;
    button.setAttribute("aria-pressed", String(now));
    button.textContent = now ? form.dataset.unlikeLabel : form.dataset.likeLabel;
    form.action = form.action.replace(/\/(un)?like$/, now ? "/unlike" : "/like");
    count.dataset.count = String(Number(count.dataset.count) + (now ? 1 : -1));
    count.textContent = `${count.dataset.count} ${count.dataset.unit}`;
  });
}

// Photo previews before a review is posted (local object URLs; nothing leaves the browser until submit).
for (const input of document.querySelectorAll("input[type=file][data-previews]")) {
  const box = document.getElementById(input.dataset.previews);
  input.addEventListener("change", () => {
    for (const img of box.querySelectorAll("img")) URL.revokeObjectURL(img.src);
    box.replaceChildren(...[...input.files].slice(0, 9).map((file) => {
      const img = document.createElement("img");
      img.src = URL.createObjectURL(file);
      img.alt = file.name;
      img.width = 96;
      img.height = 96;
      return img;
    }));
  });
}

// Pull-to-refresh on the home page (as the original app's 下拉刷新): pulling down from the top re-ranks the feed.
const refresh = document.querySelector("[data-refresh]");
if (refresh) {
  let startY = null;
  addEventListener("touchstart", (event) => {
    startY = scrollY === 0 ? event.touches[0].clientY : null;
  }, { passive: true });
  addEventListener("touchend", (event) => {
    if (startY !== null && event.changedTouches[0].clientY - startY > 90) location.assign(refresh.href);
    startY = null;
  }, { passive: true });
}

// 今天吃点啥: ask the browser where we are; when it refuses (or cannot), the city picker beside the button is used.
for (const form of document.querySelectorAll("form[data-locate]")) {
  const status = form.querySelector("[data-locate-status]");
  let located = false;
  form.addEventListener("submit", (event) => {
    if (located || !navigator.geolocation) return;
    event.preventDefault();
    status.textContent = status.dataset.locating || "…";
    navigator.geolocation.getCurrentPosition((position) => {
      form.elements.near.value = `${position.coords.latitude.toFixed(6)},${position.coords.longitude.toFixed(6)}`;
      located = true;
      form.submit();
    }, () => {
      status.textContent = status.dataset.refused || "";
      form.elements.city.focus();
      located = true; // the next press uses the city chosen
    }, { timeout: 8000, maximumAge: 300000 });
  });
}

// A store's position from the manager's browser.
for (const button of document.querySelectorAll("[data-use-location]")) {
  button.addEventListener("click", () => {
    const input = document.getElementById(button.dataset.useLocation);
    navigator.geolocation?.getCurrentPosition((position) => {
      input.value = `${position.coords.latitude.toFixed(6)},${position.coords.longitude.toFixed(6)}`;
    });
  });
}

// The header's unread count: read once, then again whenever the notification stream (the session cookie signs it
// in) says something happened. EventSource reconnects by itself and resumes after the last event it saw.
const unread = document.querySelector("[data-unread]");
if (unread && "EventSource" in window) {
  const refresh = async () => {
    const response = await fetch("/me/notifications/count", { credentials: "same-origin" });
    if (!response.ok) return;
    const { count } = await response.json();
    unread.textContent = String(count);
    unread.hidden = count === 0;
    unread.dataset.count = String(count);
  };
  refresh();
  const stream = new EventSource("/v1/me/notifications/stream");
  stream.addEventListener("message", refresh);
  // A page kept for the back button would otherwise hold its stream (a user has a few per server).
  window.addEventListener("pagehide", () => stream.close());
}

// Keyboard focus stops clear of the sticky header (app.css pads scrolling by --header): its height, as it wraps.
const header = document.querySelector("header.top");
if (header && "ResizeObserver" in window) {
  new ResizeObserver(() => {
    document.documentElement.style.setProperty("--header", `${header.offsetHeight}px`);
  }).observe(header);
}

// Installable and readable offline: the service worker (/sw.js, which says what it keeps) for every page.
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});

// The offline page's 重试 loads the page asked for again.
for (const link of document.querySelectorAll("[data-retry]")) {
  link.addEventListener("click", (event) => {
    event.preventDefault();
    location.reload();
  });
}

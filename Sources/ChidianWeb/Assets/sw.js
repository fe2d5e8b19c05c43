// 吃点啥's service worker, served at /sw.js (WebInstall fills SHELL and VERSION, so a new build installs anew).
// The shell (stylesheet, script, icons, /offline) is kept per build; pages are fetched from the network first and
// the last ones seen kept for reading offline. Personal pages come with Cache-Control: no-store and are never
// kept; signing in or out answers Clear-Site-Data: "storage", which drops all of this for the next person.
const SHELL = "__SHELL__";
const VERSION = "__VERSION__";
const SHELL_CACHE = `shell-${VERSION}`;
const PAGES = "pages";
const KEEP = 30;
// Downloads and streams pass by untouched.
const PASS = ["/me/export", "/v1/"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== SHELL_CACHE && name !== PAGES) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin) return;
  if (PASS.some((prefix) => url.pathname.startsWith(prefix))) return;
  if (request.mode === "navigate") {
    event.respondWith(page(event));
  } else if (SHELL.includes(url.pathname + url.search)) {
    event.respondWith(caches.match(request, { cacheName: SHELL_CACHE }).then((hit) => hit || fetch(request)));
  }
});

async function page(event) {
  const request = event.request;
  try {
    const response = await fetch(request);
    if (keepable(response)) event.waitUntil(keep(request, response.clone()));
    return response;
  } catch (error) {
    const cached = await caches.match(request, { cacheName: PAGES, ignoreVary: true });
    return cached || (await caches.match("/offline", { cacheName: SHELL_CACHE, ignoreVary: true })) || Response.error();
  }
}

function keepable(response) {
  const type = response.headers.get("Content-Type") || "";
  const control = response.headers.get("Cache-Control") || "";
  return response.status === 200 && response.type === "basic" && !response.redirected &&
    type.startsWith("text/html") && !/no-store/.test(control);
}

// The newest last: put replaces an entry at the end, so the first keys are the oldest.
async function keep(request, response) {
  const cache = await caches.open(PAGES);
  await cache.put(request, response);
  const keys = await cache.keys();
  for (const old of keys.slice(0, Math.max(0, keys.length - KEEP))) await cache.delete(old);
}

// The service worker of the pocket scorer (/score) and the rules page (/rules): the client
// keeps working without a connection. Served at /sw.js (scope /) by
// src/erqishi/server/rules_page.py, which heads this file with VERSION (changes with any
// client file or the rule data) and PRECACHE (every static file, the pages, /api/rules,
// /api/presets, /api/narration, the icon).
//
// Every GET of this origin goes to the network first, with a short wait; what comes back is
// kept in the cache, and when the network fails (or is slow) the cached copy answers. Pages
// are all the one index.html, so any cached page answers a page offline. WebSockets and
// other methods are not touched.
/* global VERSION, PRECACHE */
const CACHE = `erqishi-${typeof VERSION === "string" ? VERSION : "dev"}`;
const FILES = typeof PRECACHE !== "undefined" ? PRECACHE : ["/", "/score", "/rules", "/api/rules"];
const WAIT_MS = 4000;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll(FILES.map((url) => new Request(url, { cache: "reload" })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) {
        if (key.startsWith("erqishi-") && key !== CACHE) await caches.delete(key);
      }
      await self.clients.claim();
    })(),
  );
});

/** The cached answer to a request: a page by its path (any page will do, they are one
 * file), a static file whatever its query, anything else exactly. */
async function cached(request, url) {
  const cache = await caches.open(CACHE);
  if (request.mode === "navigate") {
    return (await cache.match(url.pathname)) || (await cache.match("/score")) || (await cache.match("/"));
  }
  if (url.pathname.startsWith("/static/")) return cache.match(url.pathname);
  return cache.match(request);
}

async function keep(request, url, response) {
  if (!response || response.status !== 200 || response.type !== "basic") return;
  const cache = await caches.open(CACHE);
  const key = request.mode === "navigate" || url.pathname.startsWith("/static/") ? url.pathname : request;
  await cache.put(key, response);
}

async function answer(event, request, url) {
  const network = fetch(request).then((response) => {
    event.waitUntil(keep(request, url, response.clone()));
    return response;
  });
  network.catch(() => null); // answered from the cache meanwhile: nobody waits for it
  const late = new Promise((resolve) => setTimeout(resolve, WAIT_MS, null));
  try {
    const first = await Promise.race([network, late]);
    if (first) return first;
    const copy = await cached(request, url);
    return copy || (await network);
  } catch (err) {
    const copy = await cached(request, url);
    if (copy) return copy;
    throw err;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith("/ws/") || url.pathname === "/sw.js") return;
  event.respondWith(answer(event, request, url));
});

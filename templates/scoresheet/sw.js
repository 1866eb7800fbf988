// The score sheet's service worker (served by scoresheet.views.service_worker at
// /sheets/sw.js, so its scope is /sheets/). Version {{ version }}.
//
// - The files every sheet page loads are kept at install, in a cache named for their
//   version: a new version replaces them, and only them.
// - A page under /sheets/ comes from the network when it answers (and is kept for later),
//   else from what was kept, else the offline page. A sheet page asks for itself to be
//   kept again after each change it makes without a reload (sheet.js), so that offline it
//   shows the sheet as it stood at the last change, not at the last visit.
// - Nothing else is kept: the forms' posts and the live page's polls go to the network,
//   untouched by this worker.
"use strict";
var FILES_CACHE = "sheets-files-{{ version }}";
var PAGES_CACHE = "sheets-pages";
var FILES = {{ files|safe }};
var OFFLINE = "{% url 'scoresheet:offline' %}";
var MANIFEST = "{% url 'scoresheet:manifest' %}";
var SCOPE = "{% url 'scoresheet:list' %}";
// a page that takes longer than this comes from the phone, if it kept one
var SLOW_MS = 4000;

self.addEventListener("install", function (event) {
  event.waitUntil(
    Promise.all([
      caches.open(FILES_CACHE).then(function (cache) { return cache.addAll(FILES.concat([MANIFEST])); }),
      caches.open(PAGES_CACHE).then(function (cache) { return cache.add(OFFLINE); })
    ]).then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("sheets-files-") === 0 && name !== FILES_CACHE;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function keepPage(url) {
  return fetch(url, { credentials: "same-origin" }).then(function (response) {
    if (response.ok && !response.redirected) {
      return caches.open(PAGES_CACHE).then(function (cache) { return cache.put(url, response); });
    }
  }).catch(function () {});
}

function page(request) {
  var url = request.url.split("#")[0];
  var fromNetwork = fetch(request).then(function (response) {
    if (response.ok && response.type === "basic") {
      var copy = response.clone();
      caches.open(PAGES_CACHE).then(function (cache) { cache.put(url, copy); });
    }
    return response;
  });
  var kept = caches.match(url, { cacheName: PAGES_CACHE });
  var slow = new Promise(function (resolve) {
    setTimeout(function () { kept.then(function (found) { if (found) resolve(found); }); }, SLOW_MS);
  });
  return Promise.race([fromNetwork, slow]).catch(function () {
    return kept.then(function (found) {
      return found || caches.match(OFFLINE, { cacheName: PAGES_CACHE });
    });
  });
}

// a page asks for pages to be kept (it was opened before this worker ran, or changed
// since): only pages of the sheets
self.addEventListener("message", function (event) {
  var paths = [].concat((event.data && event.data.keep) || []);
  event.waitUntil(Promise.all(paths.filter(function (path) {
    return typeof path === "string" && path.indexOf(SCOPE) === 0;
  }).map(keepPage)));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== "GET") return;
  if (request.mode === "navigate" && url.pathname.indexOf(SCOPE) === 0) {
    event.respondWith(page(request));
  } else if (FILES.indexOf(url.pathname) >= 0 || url.pathname === MANIFEST) {
    event.respondWith(caches.match(request, { cacheName: FILES_CACHE }).then(function (found) {
      return found || fetch(request);
    }));
  }
});

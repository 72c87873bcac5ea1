// Quire reader: the theme toggle, the menu on wide screens and search as
// you type. Everything here is an enhancement: without it the page reads,
// the menu opens as a <details> and the search form submits.
(function () {
  "use strict";
  var root = document.documentElement;
  var KEY = "quire-theme";

  // Theme toggle: the button ships hidden, since it does nothing without
  // this script. A stored choice applies only on sites that offer the
  // toggle, so turning it off restores the site's default for everyone.
  var toggle = document.querySelector(".theme-toggle");
  if (toggle) {
    var stored = null;
    try { stored = localStorage.getItem(KEY); } catch (e) { /* storage off */ }
    if (stored === "light" || stored === "dark") root.setAttribute("data-theme", stored);
    var isDark = function () {
      var t = root.getAttribute("data-theme");
      if (t) return t === "dark";
      return window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches;
    };
    var sync = function () { toggle.setAttribute("aria-pressed", isDark() ? "true" : "false"); };
    toggle.hidden = false;
    sync();
    toggle.addEventListener("click", function () {
      var next = isDark() ? "light" : "dark";
      root.setAttribute("data-theme", next);
      try { localStorage.setItem(KEY, next); } catch (e) { /* storage off */ }
      // The cookie lets the server open later pages in the chosen mode
      // (data-theme on <html>) instead of switching after this script runs.
      document.cookie = KEY + "=" + next + ";path=/;max-age=31536000;samesite=lax";
      sync();
    });
  }

  // The sidebar is a <details> so that it folds into a "Menu" on narrow
  // screens; browsers whose CSS cannot show closed details content get it
  // opened here on wide screens.
  var menu = document.querySelector(".menu");
  if (menu && window.matchMedia && matchMedia("(min-width: 60rem)").matches) menu.open = true;

  // A table or code block wider than the column scrolls sideways (CSS);
  // keyboard users can scroll it only if it takes focus, so one that
  // overflows joins the tab order, and leaves it when the screen grows.
  var tables = document.querySelectorAll(".content table, .content pre");
  function scrollables() {
    for (var i = 0; i < tables.length; i++) {
      var t = tables[i];
      if (t.scrollWidth > t.clientWidth + 1) t.setAttribute("tabindex", "0");
      else if (t.getAttribute("tabindex") === "0") t.removeAttribute("tabindex");
    }
  }
  if (tables.length) {
    scrollables();
    window.addEventListener("resize", scrollables);
  }

  // Search as you type: a combobox over the header search box.
  var form = document.querySelector("form.search");
  var input = form && form.querySelector("input[name=q]");
  if (!input || !window.fetch) return;
  var list = document.createElement("ul");
  list.id = "search-suggest";
  list.className = "suggest";
  list.setAttribute("role", "listbox");
  list.setAttribute("aria-label", "Search results");
  list.hidden = true;
  form.appendChild(list);
  input.setAttribute("role", "combobox");
  input.setAttribute("aria-autocomplete", "list");
  input.setAttribute("aria-controls", list.id);
  input.setAttribute("aria-expanded", "false");

  var items = [], active = -1, timer = 0, seq = 0;

  function close() {
    list.hidden = true;
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
    active = -1;
  }

  function select(i) {
    if (active >= 0 && items[active]) items[active].el.setAttribute("aria-selected", "false");
    active = i;
    if (i < 0) { input.removeAttribute("aria-activedescendant"); return; }
    var el = items[i].el;
    el.setAttribute("aria-selected", "true");
    input.setAttribute("aria-activedescendant", el.id);
    el.scrollIntoView({ block: "nearest" });
  }

  function line(cls, text) {
    var s = document.createElement("span");
    s.className = cls;
    s.textContent = text; // text only: nothing from the server becomes markup
    return s;
  }

  // The excerpt arrives as escaped text with the matches in <mark>s. It is
  // never parsed as HTML: the tags are dropped, the entities the server's
  // escaping produces are decoded, and the result is set as text.
  var ENT = { "&lt;": "<", "&gt;": ">", "&amp;": "&", "&quot;": "\"", "&#34;": "\"", "&#39;": "'" };
  function plain(html) {
    return String(html || "").replace(/<[^>]*>/g, "").replace(/&(lt|gt|amp|quot|#34|#39);/g, function (e) { return ENT[e]; });
  }

  function show(results) {
    list.textContent = "";
    items = [];
    active = -1;
    if (!results.length) {
      var none = document.createElement("li");
      none.setAttribute("role", "option");
      none.setAttribute("aria-disabled", "true");
      none.id = "search-suggest-none";
      none.textContent = "No results";
      list.appendChild(none);
    }
    results.slice(0, 10).forEach(function (r, i) {
      var li = document.createElement("li");
      li.id = "search-suggest-" + i;
      li.setAttribute("role", "option");
      li.setAttribute("aria-selected", "false");
      li.appendChild(line("t", r.title || ""));
      if (r.space) li.appendChild(line("s", r.space));
      var x = plain(r.excerpt);
      if (x) li.appendChild(line("x", x));
      li.addEventListener("mousedown", function (e) { e.preventDefault(); go(i); });
      list.appendChild(li);
      items.push({ el: li, href: r.href });
    });
    list.hidden = false;
    input.setAttribute("aria-expanded", "true");
  }

  function go(i) {
    var href = items[i] && items[i].href;
    // Only same-origin or http(s) targets: a result is a page of the site.
    if (href && /^(\/|https?:)/i.test(href)) location.href = href;
  }

  function query() {
    var q = input.value.trim();
    var mine = ++seq;
    if (q.length < 2) { close(); return; }
    var url = form.getAttribute("action") + (form.getAttribute("action").indexOf("?") < 0 ? "?" : "&") +
      "q=" + encodeURIComponent(q) + "&format=json";
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : { results: [] }; })
      .then(function (d) { if (mine === seq) show((d && d.results) || []); })
      .catch(function () { if (mine === seq) close(); });
  }

  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(query, 200);
  });
  input.addEventListener("keydown", function (e) {
    var open = !list.hidden && items.length > 0;
    if (e.key === "ArrowDown") {
      if (list.hidden) { query(); return; }
      if (open) { e.preventDefault(); select(active < items.length - 1 ? active + 1 : 0); }
    } else if (e.key === "ArrowUp" && open) {
      e.preventDefault();
      select(active > 0 ? active - 1 : items.length - 1);
    } else if (e.key === "Enter" && open && active >= 0) {
      e.preventDefault();
      go(active);
    } else if (e.key === "Escape" && !list.hidden) {
      e.preventDefault();
      close();
    }
  });
  input.addEventListener("blur", close);
})();

/* Load the search index when the reader first goes to search, not with every page.
 *
 * mkdocs-material asks for <base>/search/search_index.json (with XMLHttpRequest) as soon as a
 * page loads: the biggest file of a first visit, for a box most visits never use. Loaded in
 * <head> before material's bundle (tools/site/overrides/main.html), this holds that one request
 * back until the search box gets the focus (a click, a tap on the search icon, or the "/", "s",
 * "f" shortcuts, which focus it); every other request goes out unchanged. No request of its own. */
(function () {
  "use strict";
  var INDEX = /\/search\/search_index\.json(?:[?#]|$)/;
  var wanted = false;
  var held = [];
  var open = XMLHttpRequest.prototype.open;
  var send = XMLHttpRequest.prototype.send;

  function want() {
    if (wanted) return;
    wanted = true;
    document.documentElement.setAttribute("data-mkl-search-index", "requested");
    held.splice(0).forEach(function (go) {
      go();
    });
  }

  XMLHttpRequest.prototype.open = function (method, url) {
    this.mklIndex = INDEX.test(String(url));
    return open.apply(this, arguments);
  };
  XMLHttpRequest.prototype.send = function () {
    var xhr = this;
    var args = arguments;
    if (xhr.mklIndex && !wanted) {
      held.push(function () {
        send.apply(xhr, args);
      });
      return undefined;
    }
    return send.apply(xhr, args);
  };

  document.addEventListener(
    "focusin",
    function (e) {
      if (e.target && e.target.matches && e.target.matches("input.md-search__input")) want();
    },
    true
  );
  document.addEventListener(
    "click",
    function (e) {
      if (e.target && e.target.closest && e.target.closest('label[for="__search"]')) want();
    },
    true
  );
})();

/* Site-wide behaviour that is not the side-by-side views' (those are in sidebyside.js).
 *
 * The language switch keeps the section: both languages of a page have the same anchors
 * (tools.i18n checks it), so the link to the other language gets the current #fragment.
 * No dependency, no request. */
(function () {
  "use strict";

  document.addEventListener(
    "click",
    function (e) {
      var link = e.target.closest ? e.target.closest("a.md-select__link[hreflang]") : null;
      if (!link || !location.hash) return;
      var url = new URL(link.getAttribute("href"), location.href);
      if (url.hash) return;
      url.hash = location.hash;
      link.setAttribute("href", url.href);
    },
    true
  );
})();

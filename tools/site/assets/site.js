/* Site-wide behaviour that is not the side-by-side views' (those are in sidebyside.js).
 *
 * The language switch keeps the section. Both languages of a page have the same anchors
 * (tools.i18n checks it), and mkdocs-static-i18n links each page to its twin, so the link is
 * followed as written, with the current #fragment added. (mkdocs-material would instead take
 * the twin for a site root, look the page up in a sitemap there, and drop the fragment.)
 * No dependency, no request. */
(function () {
  "use strict";

  document.addEventListener(
    "click",
    function (e) {
      var link = e.target.closest ? e.target.closest("a.md-select__link[hreflang]") : null;
      if (!link || e.metaKey || e.ctrlKey || e.shiftKey) return;
      var url = new URL(link.getAttribute("href"), location.href);
      if (location.hash && !url.hash) {
        url.hash = location.hash;
        link.setAttribute("href", url.href);
      }
      e.stopPropagation(); // the browser follows the link; material's handler never sees it
    },
    true
  );
})();

/* Side-by-side views: pointing at a case (or focusing it) lights up its twin on the other side;
 * clicking it (or Enter/Space) keeps it lit until clicked again. Every line of a case carries
 * data-bs="<ids of the cases containing it>" and data-b="<innermost case id>".
 * No dependency, no request: it only toggles classes. */
(function () {
  "use strict";

  function members(view, id) {
    return view.querySelectorAll('[data-bs~="' + id + '"]');
  }

  function light(view, id, cls, on) {
    if (!id) return;
    members(view, id).forEach(function (el) {
      el.classList.toggle(cls, on);
    });
  }

  function caseOf(view, target) {
    var el = target && target.closest ? target.closest("[data-b]") : null;
    return el && view.contains(el) ? el.getAttribute("data-b") : null;
  }

  function setup(view) {
    if (view.getAttribute("data-ready") === "1") return;
    view.setAttribute("data-ready", "1");
    var hovered = null;
    var pinned = null;

    function hover(id) {
      if (id === hovered) return;
      light(view, hovered, "mkl-hl", false);
      hovered = id;
      light(view, hovered, "mkl-hl", true);
      view.setAttribute("data-hover", hovered || "");
    }

    function pin(id) {
      light(view, pinned, "mkl-pin", false);
      pinned = pinned === id ? null : id;
      light(view, pinned, "mkl-pin", true);
      view.setAttribute("data-pinned", pinned || "");
    }

    var expand = view.querySelector(".mkl-sbs__expand");
    function full(on) {
      view.classList.toggle("mkl-sbs--full", on);
      if (expand) expand.setAttribute("aria-pressed", on ? "true" : "false");
    }
    if (expand) {
      expand.addEventListener("click", function () {
        full(!view.classList.contains("mkl-sbs--full"));
      });
    }
    view.addEventListener("mouseover", function (e) {
      hover(caseOf(view, e.target));
    });
    view.addEventListener("mouseleave", function () {
      hover(null);
    });
    view.addEventListener("focusin", function (e) {
      hover(caseOf(view, e.target));
    });
    view.addEventListener("focusout", function () {
      hover(null);
    });
    view.addEventListener("click", function (e) {
      if (e.target.closest("a, button")) return; // links and buttons keep their own behaviour
      var id = caseOf(view, e.target);
      if (id) pin(id);
    });
    view.addEventListener("keydown", function (e) {
      if (e.key !== "Enter" && e.key !== " ") return;
      if (e.target.closest("a, button")) return;
      var id = caseOf(view, e.target);
      if (id) {
        e.preventDefault();
        pin(id);
      }
    });
  }

  // Esc anywhere closes a view shown full screen.
  document.addEventListener("keyup", function (e) {
    if (e.key !== "Escape") return;
    document.querySelectorAll(".mkl-sbs--full .mkl-sbs__expand").forEach(function (b) {
      b.click();
    });
  });

  function setupAll() {
    document.querySelectorAll(".mkl-sbs").forEach(setup);
  }

  // mkdocs-material's instant navigation swaps pages without reloading: follow it when present.
  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(setupAll);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setupAll);
  } else {
    setupAll();
  }
})();

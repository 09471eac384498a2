/* Side-by-side views (tools/site/templates/sidebyside.html.j2).
 *
 * - Pointing at a block (or focusing it) lights up its twin on the other side; clicking or
 *   tapping it (or Enter/Space) keeps it lit until clicked again. Every line of a block carries
 *   data-bs="<ids of the blocks containing it>" and data-b="<innermost block id>".
 * - Narrow views (phones) show one pane at a time: the Go | Python buttons switch, and the lit
 *   block's twin is scrolled into view on the other pane.
 * - A selection stays on the side it started on; each pane has a copy button.
 * - Full screen: the button's label says how to leave it; Esc leaves it too.
 * No dependency, no request. */
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

  function sideOf(target) {
    var cell = target && target.closest ? target.closest("td") : null;
    if (!cell) return null;
    if (cell.classList.contains("s-go")) return "go";
    if (cell.classList.contains("s-py")) return "py";
    return null;
  }

  /* The text of one pane: each line's code, padding left out. */
  function paneText(view, side) {
    var lines = [];
    view.querySelectorAll("td.mkl-" + side + ":not(.mkl-lnc) > code").forEach(function (c) {
      lines.push(c.textContent);
    });
    return lines.join("\n") + "\n";
  }

  function copy(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    var ok = document.execCommand("copy");
    document.body.removeChild(area);
    return ok ? Promise.resolve() : Promise.reject(new Error("copy refused"));
  }

  function setup(view) {
    if (view.getAttribute("data-ready") === "1") return;
    view.setAttribute("data-ready", "1");
    var hovered = null;
    var pinned = null;
    var body = view.querySelector(".mkl-sbs__body");

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

    /* Show one pane (narrow views); bring the lit block's twin into sight. */
    function showPane(side) {
      view.setAttribute("data-pane", side);
      view.querySelectorAll(".mkl-sbs__panes button").forEach(function (b) {
        b.setAttribute("aria-pressed", b.getAttribute("data-pane") === side ? "true" : "false");
      });
      var id = pinned || hovered;
      if (!id || !body) return;
      var first = view.querySelector("td.mkl-" + side + '.mkl-head[data-bs~="' + id + '"]');
      if (first) {
        body.scrollTop += first.getBoundingClientRect().top - body.getBoundingClientRect().top - 8;
      }
    }

    view.querySelectorAll(".mkl-sbs__panes button").forEach(function (b) {
      b.addEventListener("click", function () {
        showPane(b.getAttribute("data-pane"));
      });
    });

    view.querySelectorAll(".mkl-sbs__copy").forEach(function (b) {
      var label = b.textContent;
      b.addEventListener("click", function () {
        copy(paneText(view, b.getAttribute("data-copy"))).then(function () {
          b.textContent = b.getAttribute("data-done");
          setTimeout(function () {
            b.textContent = label;
          }, 1500);
        });
      });
    });

    var expand = view.querySelector(".mkl-sbs__expand");
    function full(on) {
      view.classList.toggle("mkl-sbs--full", on);
      document.documentElement.classList.toggle("mkl-sbs-open", on);
      if (expand) {
        expand.setAttribute("aria-pressed", on ? "true" : "false");
        expand.textContent = expand.getAttribute(on ? "data-on" : "data-off");
      }
    }
    if (expand) {
      expand.addEventListener("click", function () {
        full(!view.classList.contains("mkl-sbs--full"));
      });
    }

    /* A selection stays on one side: the other side cannot be selected meanwhile. */
    view.addEventListener("pointerdown", function (e) {
      var side = sideOf(e.target);
      if (side) view.setAttribute("data-select", side);
    });

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
      var selection = window.getSelection ? String(window.getSelection()) : "";
      if (selection) return; // the end of a selection is not a click on a block
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

/* Trace players (tools/site/trace.py renders them; tools/trace/player.py writes their data).
 *
 * Each .mkl-trace element names its data, a script beside the page (data-src, trace-<id>.js,
 * which calls window.mklTrace): it is loaded when the player first comes near the screen, is
 * used, or a deep link names it, so a page's first load does not carry it. A script, not a
 * fetch: it loads offline and from file:// too. The player shows one step at a time: the sentence, the Go and Python lines (lit), the state
 * (channels, pod workers, pods). Controls: buttons, the range (timeline), keys (← → Space Home
 * End), and links #trace-<id>-step-<n>. Plain JS of our own: no dependency. */
(function () {
  "use strict";

  var players = {};
  var DELAY = 900; // ms per step at 1×
  var MARKED = { select: 1, cri: 1, cgroup: 1, status: 1, worker: 1 };

  function make(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  function seconds(ns) {
    return (ns / 1e9).toFixed(3) + " s";
  }

  function Player(root) {
    this.root = root;
    this.id = root.getAttribute("data-trace");
    this.lang = root.getAttribute("data-lang") || "en";
    this.data = null;
    this.failed = false;
    this.loading = false;
    this.waiting = []; // what to do once the data is in
    this.i = 0;
    this.timer = null;
    this.speed = 1;
    this.fn = null;
    this.marked = [];
    this.doms = { go: {}, py: {} };
    this.wire();
  }

  Player.prototype.q = function (sel) {
    return this.root.querySelector(sel);
  };

  Player.prototype.zh = function (en, zh) {
    return this.lang === "zh" ? zh : en;
  };

  Player.prototype.wire = function () {
    var self = this;
    this.root.querySelectorAll("[data-act]").forEach(function (b) {
      var act = b.getAttribute("data-act");
      if (act === "speed") {
        b.addEventListener("change", function () {
          self.speed = parseFloat(b.value) || 1;
          if (self.timer) {
            self.pause();
            self.play();
          }
        });
        return;
      }
      b.addEventListener("click", function () {
        self.act(act);
      });
    });
    var range = this.q(".mkl-trace__range");
    range.addEventListener("input", function () {
      self.pause();
      self.go(parseInt(range.value, 10) - 1);
      self.load();
    });
    this.root.querySelectorAll(".mkl-trace__tabs [data-pane]").forEach(function (tab) {
      tab.addEventListener("click", function () {
        self.tab(tab.getAttribute("data-pane"));
      });
    });
    this.root.addEventListener("keydown", function (ev) {
      self.key(ev);
    });
  };

  Player.prototype.tab = function (name) {
    this.q(".mkl-trace__panes").setAttribute("data-show", name);
    this.root.querySelectorAll(".mkl-trace__tabs [data-pane]").forEach(function (tab) {
      tab.setAttribute("aria-selected", tab.getAttribute("data-pane") === name ? "true" : "false");
    });
    this.centre();
  };

  Player.prototype.key = function (ev) {
    var t = ev.target;
    if (t && t.tagName === "INPUT") return; // the range handles its own keys
    if (t && t.tagName === "SELECT") return;
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var k = ev.key;
    if (k === " " && t && t.tagName === "BUTTON") return; // Space clicks the button
    var acts = {
      ArrowRight: "next",
      ArrowLeft: "prev",
      " ": "play",
      k: "play",
      Home: "first",
      End: "last",
    };
    if (!acts[k]) return;
    ev.preventDefault();
    this.act(acts[k]);
  };

  Player.prototype.act = function (act) {
    var self = this;
    if (!this.data) {
      this.load(function () {
        self.act(act);
      });
      return;
    }
    var n = this.data.steps.length;
    if (act === "play") return this.timer ? this.pause() : this.play();
    this.pause();
    if (act === "next") this.go(this.i + 1);
    else if (act === "prev") this.go(this.i - 1);
    else if (act === "first") this.go(0);
    else if (act === "last") this.go(n - 1);
  };

  Player.prototype.play = function () {
    var self = this;
    if (!this.data) return;
    if (this.i >= this.data.steps.length - 1) this.go(0);
    this.setPlaying(true);
    this.timer = window.setInterval(function () {
      if (self.i >= self.data.steps.length - 1) return self.pause();
      self.go(self.i + 1);
    }, DELAY / this.speed);
  };

  Player.prototype.pause = function () {
    if (this.timer) window.clearInterval(this.timer);
    this.timer = null;
    this.setPlaying(false);
  };

  Player.prototype.setPlaying = function (on) {
    var b = this.q(".mkl-trace__play");
    b.setAttribute("aria-pressed", on ? "true" : "false");
    this.q(".mkl-trace__play-label").textContent = b.getAttribute(on ? "data-pause" : "data-play");
    this.root.classList.toggle("mkl-trace--playing", on);
  };

  /* Load the player's data (once), then call then() if given; a failure is said in the player. */
  Player.prototype.load = function (then) {
    if (this.data) {
      if (then) then();
      return;
    }
    if (this.failed) return;
    if (then) this.waiting.push(then);
    if (this.loading) return;
    this.loading = true;
    var self = this;
    var script = document.createElement("script");
    script.src = this.root.getAttribute("data-src");
    script.onerror = function () {
      self.fail(self.zh("its file did not load", "它的文件没有加载成功") + " (" + script.src + ")");
    };
    this.root.classList.add("mkl-trace--loading");
    document.head.appendChild(script);
  };

  /* The data arrived (from window.mklTrace): show the step the player is on. */
  Player.prototype.take = function (data) {
    if (this.data) return;
    try {
      this.data = data;
      this.prepare();
    } catch (err) {
      this.data = null;
      this.fail(err.message);
      return;
    }
    this.root.classList.remove("mkl-trace--loading");
    this.root.classList.add("mkl-trace--loaded");
    this.go(this.i);
    var waiting = this.waiting;
    this.waiting = [];
    waiting.forEach(function (then) {
      then();
    });
  };

  Player.prototype.fail = function (why) {
    this.failed = true;
    this.waiting = [];
    this.q(".mkl-trace__say").textContent =
      this.zh("The trace could not be read: ", "trace 读取失败：") + why;
    this.root.classList.remove("mkl-trace--loading");
    this.root.classList.add("mkl-trace--failed");
  };

  /* The state after each step: the initial state with every delta up to it applied. */
  Player.prototype.prepare = function () {
    var d = this.data;
    var cur = { ch: {}, w: {}, p: {} };
    ["ch", "w", "p"].forEach(function (part) {
      Object.assign(cur[part], (d.init || {})[part] || {});
    });
    this.states = d.steps.map(function (s) {
      if (!s.d) return cur;
      var next = { ch: cur.ch, w: cur.w, p: cur.p };
      ["ch", "w", "p"].forEach(function (part) {
        if (s.d[part]) next[part] = Object.assign({}, cur[part], s.d[part]);
      });
      cur = next;
      return cur;
    });
    this.q(".mkl-trace__range").max = String(d.steps.length);
    var marks = this.q(".mkl-trace__marks");
    marks.textContent = "";
    var n = d.steps.length;
    d.steps.forEach(function (s, i) {
      if (!MARKED[s.k]) return;
      var m = make("i", "mkl-trace__mark mkl-trace__mark--" + s.k);
      if (s.k === "select" && s.r && s.r.length > 1) m.classList.add("mkl-trace__mark--choice");
      var frac = n > 1 ? i / (n - 1) : 0;
      m.style.left = "calc(8px + (100% - 16px) * " + frac + ")";
      marks.appendChild(m);
    });
  };

  Player.prototype.go = function (i) {
    if (!this.data) {
      this.i = i;
      return;
    }
    var n = this.data.steps.length;
    this.i = Math.max(0, Math.min(n - 1, i));
    var s = this.data.steps[this.i];
    var num = this.i + 1;
    this.q(".mkl-trace__range").value = String(num);
    this.q(".mkl-trace__n").textContent = String(num);
    this.q(".mkl-trace__pos").setAttribute("href", "#trace-" + this.id + "-step-" + num);
    var g = s.g ? "goroutine " + s.g + " " + (this.data.gs[String(s.g)] || "") : "";
    this.q(".mkl-trace__when").textContent = "t = " + seconds(s.t) + (g ? " · " + g : "");
    this.q(".mkl-trace__say").textContent = s.s;
    this.root.setAttribute("data-step", String(num));
    this.root.setAttribute("data-kind", s.k);
    this.code(s);
    this.cases(s);
    this.state(s, this.states[this.i]);
  };

  /* A select's cases as chips: which were ready, which one ran. */
  Player.prototype.cases = function (s) {
    var box = this.q(".mkl-trace__cases");
    box.textContent = "";
    var loc = s.l == null ? null : this.data.locs[s.l];
    if (!loc || !loc.names || (s.k !== "select" && s.k !== "wait")) return;
    var self = this;
    loc.names.forEach(function (name, k) {
      var chip = make("span", "mkl-trace__case", name || "case " + k);
      if (s.k === "select" && k === s.c) {
        chip.classList.add("mkl-is-chosen");
        chip.title = self.zh("chosen", "选中");
      } else if (s.k === "select" && s.r && s.r.indexOf(k) >= 0) {
        chip.classList.add("mkl-is-ready");
        chip.title = self.zh("ready", "就绪");
      }
      box.appendChild(chip);
    });
    if (loc.dflt) {
      var d = make("span", "mkl-trace__case", "default");
      if (s.k === "select" && s.c === -1) d.classList.add("mkl-is-chosen");
      box.appendChild(d);
    }
  };

  /* --- code panes ----------------------------------------------------------------------- */

  Player.prototype.lines = function (side, f) {
    var cache = this.doms[side];
    if (cache[f]) return cache[f];
    var fn = this.data.fns[f];
    var box = make("div", "mkl-trace__lines");
    var self = this;
    function row(n, html, href) {
      var r = make("div", "mkl-trace__line");
      r.setAttribute("data-n", String(n));
      var num = make(href ? "a" : "span", "mkl-trace__ln", String(n));
      if (href) num.setAttribute("href", href);
      var c = make("span", "mkl-trace__src");
      c.innerHTML = html; // built at site build time from our own files, escaped by Pygments
      r.appendChild(num);
      r.appendChild(c);
      box.appendChild(r);
    }
    if (side === "py") {
      fn.lines.forEach(function (html, k) {
        row(fn.ps + k, html, null);
      });
    } else if (fn.go && fn.go.lines) {
      fn.go.lines.forEach(function (html, k) {
        var n = fn.go.s + k;
        row(n, html, self.data.gh + fn.go.path + "#L" + n);
      });
    } else if (fn.go) {
      var note = make(
        "p",
        "mkl-trace__note",
        self.zh(
          "No Go source in this build: its cases, each linked to its lines.",
          "本次构建没有 Go 源码：下面是它的各个 case，每个都链接到对应的行。"
        )
      );
      box.appendChild(note);
      row(fn.go.s, "func " + escapeHtml(fn.go.sym), self.data.gh + fn.go.path + "#L" + fn.go.s);
      fn.go.cases.forEach(function (c) {
        row(c[0], escapeHtml(c[2]), self.data.gh + fn.go.path + "#L" + c[0] + "-L" + c[1]);
      });
      box.classList.add("mkl-trace__lines--links");
    } else {
      box.appendChild(
        make(
          "p",
          "mkl-trace__note",
          self.zh(
            "No Go here: this function is the port's own (or not mapped to Go).",
            "这里没有 Go：这个函数是移植代码自己的（或没有对应到 Go）。"
          )
        )
      );
    }
    cache[f] = box;
    return box;
  };

  function escapeHtml(s) {
    return s.replace(/[&<>"]/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c];
    });
  }

  Player.prototype.code = function (s) {
    var loc = s.l == null ? null : this.data.locs[s.l];
    this.marked.forEach(function (e) {
      e.classList.remove(
        "mkl-is-cur",
        "mkl-is-lit",
        "mkl-is-ready",
        "mkl-is-chosen",
        "mkl-is-case",
        "mkl-is-focus"
      );
    });
    this.marked = [];
    this.root.classList.toggle("mkl-trace--nowhere", !loc);
    if (!loc) return;
    var fn = this.data.fns[loc.f];
    var go = this.q(".mkl-trace__pane--go");
    var py = this.q(".mkl-trace__pane--py");
    if (this.fn !== loc.f) {
      this.fn = loc.f;
      py.querySelector(".mkl-trace__fn").textContent = fn.fn;
      py.querySelector(".mkl-trace__file").textContent = fn.py;
      swap(py.querySelector(".mkl-trace__code"), this.lines("py", loc.f));
      var gofn = go.querySelector(".mkl-trace__fn");
      var file = go.querySelector(".mkl-trace__file");
      gofn.textContent = fn.go ? fn.go.sym : "—";
      if (fn.go) {
        file.textContent = fn.go.path + " L" + fn.go.s + "–" + fn.go.e;
        file.setAttribute("href", this.data.gh + fn.go.path + "#L" + fn.go.s + "-L" + fn.go.e);
      } else {
        file.textContent = "";
        file.removeAttribute("href");
      }
      swap(go.querySelector(".mkl-trace__code"), this.lines("go", loc.f));
    }
    var pyLines = this.doms.py[loc.f];
    var goLines = this.doms.go[loc.f];
    this.mark(pyLines, loc.py, "mkl-is-cur");
    if (loc.go != null) {
      for (var n = loc.gf; n <= loc.gt; n++) this.mark(goLines, n, "mkl-is-lit");
      this.mark(goLines, loc.go, "mkl-is-cur", true);
    }
    if (loc.sel && (s.k === "select" || s.k === "wait")) {
      var self = this;
      var pairs = loc.sel.map(function (p, k) {
        return [p, k];
      });
      if (loc.dflt) pairs.push([loc.dflt, -1]);
      pairs.forEach(function (pk) {
        var p = pk[0];
        var k = pk[1];
        if (!p) return;
        var cls = "mkl-is-case";
        if (s.k === "select" && k === s.c) cls = "mkl-is-chosen";
        else if (s.k === "select" && s.r && s.r.indexOf(k) >= 0) cls = "mkl-is-ready";
        self.mark(goLines, p[0], cls, true);
        if (p[1] != null) self.mark(pyLines, p[1], cls);
        if (cls === "mkl-is-chosen") {
          self.mark(goLines, p[0], "mkl-is-focus", true);
          if (p[1] != null) self.mark(pyLines, p[1], "mkl-is-focus");
        }
      });
    }
    this.centre();
  };

  function swap(holder, box) {
    if (holder.firstChild === box) return;
    holder.textContent = "";
    holder.appendChild(box);
  }

  /* Light line n (in link-only Go, the nearest listed line above it). */
  Player.prototype.mark = function (box, n, cls, nearest) {
    if (!box) return;
    var e = box.querySelector('[data-n="' + n + '"]');
    if (!e && nearest && box.classList.contains("mkl-trace__lines--links")) {
      var best = null;
      box.querySelectorAll("[data-n]").forEach(function (r) {
        var m = parseInt(r.getAttribute("data-n"), 10);
        if (m <= n && (!best || m >= parseInt(best.getAttribute("data-n"), 10))) best = r;
      });
      e = best;
    }
    if (!e) return;
    e.classList.add(cls);
    this.marked.push(e);
  };

  /* Scroll each code pane (not the page) so that its line in focus (a select's chosen case,
   * else the current line) is in the middle. */
  Player.prototype.centre = function () {
    this.root.querySelectorAll(".mkl-trace__code").forEach(function (holder) {
      var cur = holder.querySelector(".mkl-is-focus") || holder.querySelector(".mkl-is-cur");
      if (!cur || !holder.clientHeight) return;
      holder.scrollTop = Math.max(0, cur.offsetTop - holder.clientHeight / 2);
    });
  };

  /* --- state panel ---------------------------------------------------------------------- */

  Player.prototype.state = function (s, st) {
    var box = this.q(".mkl-trace__state");
    box.textContent = "";
    var d = s.d || {};
    var self = this;
    function section(title) {
      var sec = make("div", "mkl-trace__sec");
      sec.appendChild(make("h4", null, title));
      box.appendChild(sec);
      return sec;
    }
    if (this.data.chans.length) {
      var sec = section(this.zh("Channels", "通道"));
      this.data.chans.forEach(function (ch) {
        var items = st.ch[String(ch.id)] || [];
        var row = make("div", "mkl-trace__chan");
        row.setAttribute("data-chan", ch.label);
        if (d.ch && d.ch[String(ch.id)]) row.classList.add("mkl-is-changed");
        var name = make("code", "mkl-trace__chan-name", ch.label);
        if (ch.name && ch.name !== ch.label) name.title = ch.name;
        row.appendChild(name);
        row.appendChild(make("span", "mkl-trace__len", items.length + "/" + ch.cap));
        var list = make("span", "mkl-trace__items");
        if (!items.length) list.appendChild(make("span", "mkl-trace__empty", self.zh("empty", "空")));
        items.forEach(function (it) {
          list.appendChild(make("span", "mkl-trace__item", it));
        });
        row.appendChild(list);
        sec.appendChild(row);
      });
    }
    var workers = Object.keys(st.w).sort();
    if (workers.length) {
      var ws = section(this.zh("Pod workers", "Pod worker"));
      workers.forEach(function (pod) {
        var w = st.w[pod];
        var row = make("div", "mkl-trace__worker");
        if (d.w && d.w[pod]) row.classList.add("mkl-is-changed");
        row.appendChild(make("code", null, pod));
        row.appendChild(
          make("span", w[0] ? "mkl-trace__busy" : "mkl-trace__idle", "isWorking=" + (w[0] ? "true" : "false"))
        );
        if (w[1]) row.appendChild(make("span", "mkl-trace__pending", "lastUndeliveredWorkUpdate: " + w[1]));
        ws.appendChild(row);
      });
    }
    var pods = Object.keys(st.p).sort();
    if (pods.length) {
      var ps = section(this.zh("Pods", "Pod"));
      pods.forEach(function (pod) {
        var p = st.p[pod];
        var row = make("div", "mkl-trace__pod");
        if (d.p && d.p[pod]) row.classList.add("mkl-is-changed");
        row.appendChild(make("code", null, pod));
        row.appendChild(make("span", "mkl-trace__phase mkl-trace__phase--" + (p.phase || "none"), (p.phase || "—") + (p.reason ? " · " + p.reason : "")));
        (p.init || []).concat(p.containers || []).forEach(function (c, k) {
          var init = k < (p.init || []).length;
          var chip = make("span", "mkl-trace__ctr mkl-trace__ctr--" + c[1].split(":")[0], (init ? "init " : "") + c[0] + ": " + c[1]);
          row.appendChild(chip);
        });
        ps.appendChild(row);
      });
    }
    if (!box.firstChild) box.appendChild(make("p", "mkl-trace__note", this.zh("Nothing yet.", "暂时没有内容。")));
  };

  /* --- setup and deep links ---------------------------------------------------------------- */

  function fromHash() {
    var m = /^#trace-(.+)-step-(\d+)$/.exec(window.location.hash);
    if (!m || !players[m[1]]) return;
    var p = players[m[1]];
    p.pause();
    p.root.scrollIntoView({ block: "start" });
    p.load(function () {
      p.go(parseInt(m[2], 10) - 1);
      p.root.scrollIntoView({ block: "start" });
    });
  }

  /* Called by each player's data script (trace-<id>.js). */
  window.mklTrace = function (id, data) {
    if (players[id]) players[id].take(data);
  };

  /* Load each player's data when it comes within a screen of the view (or at once, where the
   * browser cannot tell), or when it gets the focus. */
  function watch(p) {
    p.root.addEventListener("focusin", function () {
      p.load();
    });
    if (!("IntersectionObserver" in window)) return p.load();
    var seen = new IntersectionObserver(
      function (entries) {
        entries.forEach(function (e) {
          if (!e.isIntersecting) return;
          seen.disconnect();
          p.load();
        });
      },
      { rootMargin: "100% 0px" }
    );
    seen.observe(p.root);
  }

  function setup() {
    document.querySelectorAll(".mkl-trace").forEach(function (root) {
      if (root.getAttribute("data-ready") === "1") return;
      root.setAttribute("data-ready", "1");
      var p = new Player(root);
      players[p.id] = p;
      watch(p);
    });
    fromHash();
  }

  window.addEventListener("hashchange", fromHash);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();

/* Run in a built page by tools/site/book: the page's article, made ready to sit in the book.
 * Argument: {slug, pages: {absolute page URL: its slug in the book}, site: the published
 * site's URL or ""}. Returns {title, html}. Every id gets the page's slug in front (pages
 * share ids such as "goals"), links to a page of the book become links inside the PDF, links to
 * the site's other pages go to the published site (or lose their link without one), and every
 * other URL is made absolute, so that the book loads the same images and styles. */
(args) => {
  const article =
    document.querySelector("article.md-content__inner") || document.querySelector("article");
  const copy = article.cloneNode(true);
  copy.querySelectorAll(".md-content__button, .headerlink, .md-clipboard, .md-source-file")
    .forEach((e) => e.remove());
  copy.querySelectorAll("[id]").forEach((e) => {
    e.id = args.slug + "--" + e.id;
  });
  const here = new URL(location.href);
  const page = (url) => url.origin + url.pathname.replace(/index\.html$/, "");
  copy.querySelectorAll("a[href]").forEach((a) => {
    const url = new URL(a.getAttribute("href"), here);
    if (url.origin !== here.origin) return;
    const target = args.pages[page(url)];
    if (target !== undefined) {
      const hash = decodeURIComponent(url.hash.slice(1));
      a.setAttribute("href", "#" + target + (hash ? "--" + hash : ""));
    } else if (args.site) {
      a.setAttribute("href", args.site + url.pathname.replace(/^\//, "") + url.hash);
    } else {
      a.removeAttribute("href");
    }
  });
  for (const [sel, attr] of [["img", "src"], ["source", "src"], ["object", "data"]]) {
    copy.querySelectorAll(sel + "[" + attr + "]").forEach((e) => {
      e.setAttribute(attr, new URL(e.getAttribute(attr), here).href);
    });
  }
  copy.querySelectorAll("img[loading]").forEach((e) => e.removeAttribute("loading"));
  // A review question's answer is folded on the site; on paper it is printed under it.
  copy.querySelectorAll("details").forEach((e) => e.setAttribute("open", ""));
  const h1 = copy.querySelector("h1");
  return { title: h1 ? h1.textContent.trim() : document.title, html: copy.innerHTML };
}

// Opens an executed Kiln notebook exported to HTML (or the index page of
// executed notebooks) in headless Chromium
// (Debian's /usr/bin/chromium, driven by playwright-core), measures the
// Kiln views as laid out, saves a full-page screenshot, and prints what it
// saw as JSON for the pytest side to judge.
// Usage: node check_notebook.mjs NOTEBOOK.html SCREENSHOT.png
import { chromium } from 'playwright-core';

const [htmlPath, screenshotPath] = process.argv.slice(2);
if (!htmlPath || !screenshotPath) {
  console.error('usage: node check_notebook.mjs NOTEBOOK.html SCREENSHOT.png');
  process.exit(2);
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
         '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  // The export may name CDN scripts (MathJax, require.js) that cannot load
  // here; Kiln's views need none of them, so the DOM being ready is enough.
  await page.goto('file://' + htmlPath, { waitUntil: 'domcontentloaded' });
  const seen = await page.evaluate(() => {
    const box = (el) => {
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      return { width: r.width, height: r.height,
               visible: r.width > 0 && r.height > 0 && style.visibility !== 'hidden' && style.display !== 'none',
               // wider than its box: cut off at the right edge, or scrolled to be read
               overflows: el.scrollWidth > el.clientWidth + 1 };
    };
    const views = (selector) => [...document.querySelectorAll(selector)].map((el) => ({
      ...box(el),
      text: el.innerText ?? el.textContent,
      title: el.getAttribute('title'),
      bars: [...el.querySelectorAll('rect.kiln-bar')].map((bar) => ({ label: bar.dataset.label, ...box(bar) })),
      rows: [...el.querySelectorAll('tr')].map((tr) => ({ ...box(tr), text: tr.innerText,
                                                           kind: tr.className })),
    }));
    return {
      tables: views('table.kiln-compare-table'),
      charts: views('div.kiln-compare svg.kiln-chart'),
      timingCharts: views('div.kiln-timing-chart'),
      footers: views('div.kiln-footer'),
      estimates: views('div.kiln-footer span.kiln-estimated'),
      cacheLoads: views('div.kiln-footer span.kiln-cache-load'),
      annotations: views('div.kiln-annotate'),
      jitcells: views('div.kiln-jit-cell'),
      parallel: views('div.kiln-par'),
      sysinfo: views('div.kiln-sysinfo'),
      code: views('div.kiln-llvm, div.kiln-asm'),
      // the line under a cell while long work runs (kiln/magics/progress.py), and its bar
      progress: [...document.querySelectorAll('div.kiln-progress')].map((el) => ({
        ...box(el), text: el.innerText,
        bar: el.querySelector('progress') ? box(el.querySelector('progress')) : null })),
      // the index page of executed notebooks (scripts/notebook_index.py)
      courseIndex: views('table.kiln-course-index'),
      courseLinks: [...document.querySelectorAll('a.kiln-course-link')].map((a) => ({
        ...box(a), text: a.innerText, href: a.getAttribute('href') })),
    };
  });
  await page.screenshot({ path: screenshotPath, fullPage: true });
  console.log(JSON.stringify(seen));
} finally {
  await browser.close();
}

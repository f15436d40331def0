/**
 * The dashboard's own small script, served from /assets under a path that changes with its
 * content and loaded with the page's nonce (no inline handler anywhere). Everything it does is
 * an extra: copy buttons for short URLs and the "select all" box of the links list appear only
 * when it runs; without it the pages work as plain forms and links.
 */
import { createHash } from 'node:crypto'

export const DASHBOARD_SCRIPT = `'use strict';
(function () {
  function copy(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    var area = document.createElement('textarea');
    area.value = text;
    area.className = 'offscreen';
    document.body.appendChild(area);
    area.select();
    var done = document.execCommand('copy');
    area.remove();
    return done ? Promise.resolve() : Promise.reject(new Error('copy refused'));
  }
  function enhance(root) {
    root.querySelectorAll('button[data-copy]').forEach(function (b) { b.hidden = false; });
    var all = root.querySelector('#select-all');
    if (all) all.hidden = false;
  }
  document.addEventListener('click', function (event) {
    var button = event.target instanceof Element ? event.target.closest('button[data-copy]') : null;
    if (!button) return;
    var label = button.textContent;
    copy(button.getAttribute('data-copy')).then(
      function () { button.textContent = 'Copied'; },
      function () { button.textContent = 'Copy failed'; }
    ).then(function () { setTimeout(function () { button.textContent = label; }, 2000); });
  });
  document.addEventListener('change', function (event) {
    var box = event.target;
    if (!(box instanceof HTMLInputElement) || box.id !== 'select-all') return;
    document.querySelectorAll('input[name="ids[]"][type="checkbox"]').forEach(function (c) {
      c.checked = box.checked;
    });
  });
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', function () { enhance(document); });
  } else {
    enhance(document);
  }
  document.addEventListener('htmx:afterSwap', function (event) { enhance(event.target); });
})();
`

export const DASHBOARD_SCRIPT_PATH = `/assets/dashboard-${createHash('sha256')
  .update(DASHBOARD_SCRIPT)
  .digest('hex')
  .slice(0, 12)}.js`

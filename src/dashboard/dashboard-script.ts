/**
 * The dashboard's own small script, served from /assets under a path that changes with its
 * content and loaded with the page's nonce (no inline handler anywhere). Everything it does is
 * an extra: copy buttons for short URLs, the "select all" box of the links list, the theme
 * button (light, dark or the system's, remembered in localStorage and set before the page is
 * drawn), the keyboard shortcuts ("/" search, "n" new link, "?" the list) and the live share
 * of the destination URL under weighted rotation rows exist only when it runs, like the UTM
 * fields' sync (utm-script.ts) and the tags field's chips (tag-chips-script.ts); without it the
 * pages work as plain forms and links, in the system's theme.
 */
import { createHash } from 'node:crypto'
import { SOCIAL_CARD_SCRIPT } from './social-card-script.js'
import { TAG_CHIPS_SCRIPT } from './tag-chips-script.js'
import { UTM_SCRIPT } from './utm-script.js'

export const DASHBOARD_SCRIPT = `'use strict';
(function () {
  var THEMES = ['system', 'light', 'dark'];
  function storedTheme() {
    var theme = null;
    try { theme = localStorage.getItem('slink-theme'); } catch (e) { theme = null; }
    return THEMES.indexOf(theme) > 0 ? theme : 'system';
  }
  function applyTheme(theme) {
    if (theme === 'system') document.documentElement.removeAttribute('data-theme');
    else document.documentElement.setAttribute('data-theme', theme);
  }
  applyTheme(storedTheme());
  function nameTheme(button, theme) {
    button.setAttribute('aria-label', 'Theme: ' + theme);
    button.title = 'Theme: ' + theme;
  }
  function showTheme(button) {
    nameTheme(button, storedTheme());
    button.hidden = false;
  }
  function typing(target) {
    return target instanceof Element &&
      target.closest('input, textarea, select, [contenteditable]:not([contenteditable="false"])') !== null;
  }
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
    var theme = root.querySelector('#theme-toggle');
    if (theme) showTheme(theme);
  }
  document.addEventListener('click', function (event) {
    var button = event.target instanceof Element ? event.target.closest('#theme-toggle') : null;
    if (!button) return;
    var next = THEMES[(THEMES.indexOf(storedTheme()) + 1) % THEMES.length];
    try {
      if (next === 'system') localStorage.removeItem('slink-theme');
      else localStorage.setItem('slink-theme', next);
    } catch (e) { /* not remembered: this page still changes */ }
    applyTheme(next);
    nameTheme(button, next);
  });
  document.addEventListener('keydown', function (event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (typing(event.target)) return;
    var dialog = document.getElementById('shortcuts');
    if (dialog && dialog.open) return;
    if (event.key === '/') {
      event.preventDefault();
      var search = document.getElementById('filter-search');
      if (search) search.focus();
      else location.href = '/dashboard/links#search';
    } else if (event.key === 'n') {
      event.preventDefault();
      location.href = '/dashboard/links/new';
    } else if (event.key === '?' && dialog) {
      event.preventDefault();
      dialog.showModal();
    }
  });
  function focusSearch() {
    var search = document.getElementById('filter-search');
    if (location.hash === '#search' && search) search.focus();
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
    var select = event.target;
    if (!(select instanceof HTMLSelectElement) || !select.id) return;
    var state = document.querySelector('[data-follows="' + select.id + '"]');
    if (!state) return;
    var states = JSON.parse(state.getAttribute('data-states') || '{}');
    if (Object.prototype.hasOwnProperty.call(states, select.value)) state.textContent = states[select.value];
  });
  document.addEventListener('change', function (event) {
    var box = event.target;
    if (!(box instanceof HTMLInputElement) || box.id !== 'select-all') return;
    document.querySelectorAll('input[name="ids[]"][type="checkbox"]').forEach(function (c) {
      c.checked = box.checked;
    });
  });
  function rotationShare() {
    var share = document.getElementById('rotation-share');
    if (!share) return;
    var weights = [];
    document.querySelectorAll('input[name^="rotation["][name$="][weight]"]').forEach(function (input) {
      var w = input.value.trim();
      if (w !== '') weights.push(w);
    });
    var sum = 0;
    weights.forEach(function (w) { if (/^\\d{1,3}$/.test(w)) sum += Number(w); });
    share.textContent = weights.length === 0
      ? 'Without weights, visitors take turns: the destination URL, then each row.'
      : sum > 100
        ? 'The weights add up to ' + sum + ', more than 100.'
        : 'The destination URL gets the other ' + (100 - sum) + ' of every 100 visits.';
  }
  document.addEventListener('input', function (event) {
    var input = event.target;
    if (input instanceof HTMLInputElement && /^rotation\\[\\d+\\]\\[weight\\]$/.test(input.name)) rotationShare();
  });
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', function () { enhance(document); focusSearch(); });
  } else {
    enhance(document);
    focusSearch();
  }
  document.addEventListener('htmx:afterSwap', function (event) { enhance(event.target); });
${SOCIAL_CARD_SCRIPT}
})();
${UTM_SCRIPT}
${TAG_CHIPS_SCRIPT}`

export const DASHBOARD_SCRIPT_PATH = `/assets/dashboard-${createHash('sha256')
  .update(DASHBOARD_SCRIPT)
  .digest('hex')
  .slice(0, 12)}.js`

/**
 * The tags field's part of the dashboard script: the plain field (names separated by commas,
 * which is what the form sends and all there is without JavaScript) is hidden behind chips, one
 * per name with a remove button, and an input that makes a chip on Enter or a comma, takes the
 * last one back on Backspace, and suggests the user's tags as a combobox (ARIA 1.2: arrows,
 * Enter to pick, Escape to close). Every change is written back into the plain field (and the
 * count into the section's summary), so the server sees the same `tags` value either way; what
 * is still typed goes with the form too.
 */
import { MAX_TAG_NAME, MAX_TAGS_PER_LINK } from '../tags/names.js'

/** How many suggestions the list shows at once. */
const SHOWN = 8

export const TAG_CHIPS_SCRIPT = `
(function () {
  var MAX_NAME = ${MAX_TAG_NAME};
  var MAX_TAGS = ${MAX_TAGS_PER_LINK};
  var SHOWN = ${SHOWN};
  function key(name) { return name.toLowerCase(); }
  function make(tag, className) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    return node;
  }
  function chipField(wrap) {
    var field = wrap.querySelector('input[type="text"]');
    if (!field || wrap.hasAttribute('data-chips')) return;
    wrap.setAttribute('data-chips', '');
    var id = field.id;
    var source = document.getElementById(wrap.getAttribute('data-tag-suggestions') || '');
    var known = source ? Array.prototype.map.call(source.querySelectorAll('option'), function (o) { return o.value; }) : [];
    var spelling = {};
    known.forEach(function (name) { spelling[key(name)] = name; });
    var names = [];
    field.value.split(',').forEach(function (part) {
      var name = part.trim();
      if (name !== '' && !names.some(function (n) { return key(n) === key(name); })) names.push(name);
    });

    var combo = make('div', 'chip-combo');
    var box = make('div', 'chips');
    var chips = make('ul', 'chip-list');
    chips.setAttribute('aria-label', 'Tags of this link');
    var entry = make('input');
    entry.type = 'text';
    entry.id = id + '-entry';
    entry.autocomplete = 'off';
    entry.placeholder = 'Add a tag';
    entry.setAttribute('role', 'combobox');
    entry.setAttribute('aria-autocomplete', 'list');
    entry.setAttribute('aria-expanded', 'false');
    entry.setAttribute('aria-controls', id + '-suggestions');
    if (field.getAttribute('aria-invalid')) entry.setAttribute('aria-invalid', 'true');
    var listbox = make('ul', 'chip-suggestions');
    listbox.id = id + '-suggestions';
    listbox.setAttribute('role', 'listbox');
    listbox.setAttribute('aria-label', 'Your tags');
    listbox.hidden = true;
    var status = make('p', 'visually-hidden');
    status.id = id + '-status';
    status.setAttribute('aria-live', 'polite');
    entry.setAttribute('aria-describedby', [field.getAttribute('aria-describedby'), status.id].filter(Boolean).join(' '));
    box.appendChild(chips);
    box.appendChild(entry);
    combo.appendChild(box);
    combo.appendChild(listbox);
    field.insertAdjacentElement('afterend', combo);
    combo.insertAdjacentElement('afterend', status);
    field.hidden = true;
    field.removeAttribute('list');
    var label = wrap.querySelector('label[for="' + id + '"]');
    if (label) label.htmlFor = entry.id;
    var hint = document.getElementById(id + '-hint');
    if (hint) hint.textContent = 'Press Enter or type a comma after each name; a new name makes a tag.';

    var shown = [];
    var active = -1;
    function say(text, problem) {
      status.textContent = text;
      status.className = problem ? 'field-error chip-status' : 'visually-hidden';
    }
    function has(name) { return names.some(function (n) { return key(n) === key(name); }); }
    var summary = document.getElementById(wrap.getAttribute('data-tag-count') || '');
    function write() {
      field.value = names.join(', ');
      if (!summary) return;
      // "No space · 2 tags · No pixels": the count is the part before the last.
      var parts = summary.textContent.split(' \u00b7 ');
      if (parts.length < 2) return;
      parts[parts.length - 2] = names.length === 0 ? 'No tags' : names.length === 1 ? '1 tag' : names.length + ' tags';
      summary.textContent = parts.join(' \u00b7 ');
    }
    function render() {
      chips.textContent = '';
      names.forEach(function (name) {
        var chip = make('li', 'chip');
        var text = make('span');
        text.textContent = name;
        var remove = make('button');
        remove.type = 'button';
        remove.textContent = '\\u00d7';
        remove.setAttribute('aria-label', 'Remove tag ' + name);
        remove.setAttribute('data-tag', name);
        chip.appendChild(text);
        chip.appendChild(remove);
        chips.appendChild(chip);
      });
      write();
    }
    /** Adds a name; false (with a message) when it cannot be added, so it stays typed. */
    function add(text) {
      var name = text.trim();
      if (name === '') return true;
      if (Object.prototype.hasOwnProperty.call(spelling, key(name))) name = spelling[key(name)];
      if (has(name)) { say('\\u201c' + name + '\\u201d is there already.', false); return true; }
      if (Array.from(name).length > MAX_NAME) {
        say('A tag name has at most ' + MAX_NAME + ' characters.', true);
        return false;
      }
      if (names.length >= MAX_TAGS) { say('A link has at most ' + MAX_TAGS + ' tags.', true); return false; }
      names.push(name);
      render();
      say('Tag ' + name + ' added.', false);
      return true;
    }
    function remove(name) {
      names = names.filter(function (n) { return n !== name; });
      render();
      say('Tag ' + name + ' removed.', false);
    }
    function close() {
      listbox.hidden = true;
      entry.setAttribute('aria-expanded', 'false');
      entry.removeAttribute('aria-activedescendant');
      active = -1;
    }
    function choose(i) {
      active = i;
      Array.prototype.forEach.call(listbox.children, function (option, n) {
        option.setAttribute('aria-selected', n === i ? 'true' : 'false');
      });
      var option = listbox.children[i];
      if (option) {
        entry.setAttribute('aria-activedescendant', option.id);
        option.scrollIntoView({ block: 'nearest' });
      } else entry.removeAttribute('aria-activedescendant');
    }
    function open() {
      var typed = key(entry.value.trim());
      var free = known.filter(function (name) { return !has(name) && key(name).indexOf(typed) !== -1; });
      shown = free.filter(function (name) { return key(name).indexOf(typed) === 0; })
        .concat(free.filter(function (name) { return key(name).indexOf(typed) !== 0; }))
        .slice(0, SHOWN);
      listbox.textContent = '';
      if (shown.length === 0) { close(); return; }
      shown.forEach(function (name, i) {
        var option = make('li');
        option.id = id + '-suggestion-' + i;
        option.setAttribute('role', 'option');
        option.setAttribute('aria-selected', 'false');
        option.textContent = name;
        listbox.appendChild(option);
      });
      listbox.hidden = false;
      entry.setAttribute('aria-expanded', 'true');
      choose(-1);
    }
    function pick(i) {
      var name = shown[i];
      if (name === undefined) return;
      entry.value = '';
      add(name);
      close();
    }
    function commitTyped() {
      if (add(entry.value)) entry.value = '';
    }
    entry.addEventListener('input', function () {
      var parts = entry.value.split(',');
      if (parts.length > 1) {
        var rest = parts.pop();
        var failed = [];
        parts.forEach(function (part) {
          if (failed.length > 0 || !add(part)) failed.push(part);
        });
        entry.value = failed.concat([rest]).join(',').replace(/^\\s+/, '');
      }
      if (entry.value.trim() === '') close();
      else open();
    });
    entry.addEventListener('keydown', function (event) {
      var expanded = !listbox.hidden;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        if (!expanded) { open(); if (listbox.hidden) return; }
        var n = shown.length;
        choose(event.key === 'ArrowDown' ? (active + 1) % n : (active <= 0 ? n - 1 : active - 1));
      } else if (event.key === 'Enter') {
        if (expanded && active >= 0) { event.preventDefault(); pick(active); }
        else if (entry.value.trim() !== '') { event.preventDefault(); commitTyped(); close(); }
      } else if (event.key === 'Escape') {
        if (expanded) { event.preventDefault(); event.stopPropagation(); close(); }
      } else if (event.key === 'Backspace' && entry.value === '' && names.length > 0) {
        event.preventDefault();
        remove(names[names.length - 1]);
      }
    });
    listbox.addEventListener('mousedown', function (event) { event.preventDefault(); });
    listbox.addEventListener('click', function (event) {
      var option = event.target instanceof Element ? event.target.closest('[role="option"]') : null;
      if (option) pick(Array.prototype.indexOf.call(listbox.children, option));
      entry.focus();
    });
    chips.addEventListener('click', function (event) {
      var button = event.target instanceof Element ? event.target.closest('button[data-tag]') : null;
      if (!button) return;
      remove(button.getAttribute('data-tag'));
      entry.focus();
    });
    box.addEventListener('click', function (event) { if (event.target === box) entry.focus(); });
    combo.addEventListener('focusout', function (event) {
      if (!(event.relatedTarget instanceof Node) || !combo.contains(event.relatedTarget)) close();
    });
    if (field.form) {
      // What is still typed goes too, unchecked: the server's answer names any problem.
      field.form.addEventListener('submit', function () {
        var typed = entry.value.trim();
        field.value = names.concat(typed === '' ? [] : [typed]).join(', ');
      });
    }
    render();
  }
  function enhance(root) {
    root.querySelectorAll('[data-tag-suggestions]').forEach(chipField);
  }
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', function () { enhance(document); });
  } else enhance(document);
  document.addEventListener('htmx:afterSwap', function (event) {
    if (event.target instanceof Element) enhance(event.target);
  });
})();
`

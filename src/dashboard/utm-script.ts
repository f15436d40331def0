/**
 * The UTM section's part of the dashboard script: typing in a utm_* field writes it into the
 * destination URL at once, typing the URL fills the fields from its query, and choosing a
 * template (or pressing Apply) fills the fields and the URL without a round trip. The URL is
 * rewritten by the very functions the server uses (utm/query.ts), from their own source.
 */
import { mergeUtm, readUtm } from '../utm/query.js'
import { UTM_PARAMETERS } from '../utm/schema.js'

export const UTM_SCRIPT = `
(function () {
  var NAMES = ${JSON.stringify(UTM_PARAMETERS)};
  var mergeUtm = ${mergeUtm.toString()};
  var readUtm = ${readUtm.toString()};
  function section() { return document.querySelector('[data-utm-form]'); }
  function urlField() { return document.getElementById('url'); }
  function writeFields(values) {
    NAMES.forEach(function (name) {
      var field = document.getElementById(name);
      if (field) field.value = values[name] || '';
    });
  }
  function writeUrl() {
    var url = urlField();
    if (!url || url.value.trim() === '') return;
    var given = {};
    NAMES.forEach(function (name) {
      var field = document.getElementById(name);
      if (field) given[name] = field.value.trim();
    });
    url.value = mergeUtm(url.value, given, NAMES);
  }
  function applyChosen() {
    var select = document.getElementById('utm-template');
    var option = select && select.selectedOptions[0];
    var data = option && option.getAttribute('data-utm');
    if (!data) return false;
    writeFields(JSON.parse(data));
    writeUrl();
    return true;
  }
  document.addEventListener('input', function (event) {
    var target = event.target;
    if (!(target instanceof HTMLInputElement) || !section()) return;
    if (target.id === 'url') writeFields(readUtm(target.value, NAMES));
    else if (NAMES.indexOf(target.id) !== -1) writeUrl();
  });
  document.addEventListener('change', function (event) {
    if (event.target instanceof HTMLSelectElement && event.target.id === 'utm-template') applyChosen();
  });
  document.addEventListener('click', function (event) {
    var button = event.target instanceof Element ? event.target.closest('#utm-apply') : null;
    if (button && applyChosen()) event.preventDefault();
  });
})();
`

/**
 * The part of the dashboard script that redraws the link form's social card as its fields are
 * typed: the title (the preview title, else the link's title, else the short URL), the
 * description, the domain (the chosen one on a new link) and the image, which is loaded only
 * from an https URL typed in the image field (an http one is named in a note instead). Text is
 * set with textContent, never as markup.
 */
export const SOCIAL_CARD_SCRIPT = `
  function drawSocialCard() {
    var card = document.getElementById('social-card');
    if (!card) return;
    function value(id) {
      var field = document.getElementById(id);
      return field ? field.value.trim() : '';
    }
    document.getElementById('social-card-title').textContent =
      value('og_title') || value('title') || card.getAttribute('data-fallback-title') || '';
    document.getElementById('social-card-description').textContent = value('og_description');
    var domain = document.getElementById('domain_id');
    if (domain && domain.selectedIndex >= 0) {
      document.getElementById('social-card-domain').textContent = domain.options[domain.selectedIndex].text;
    }
    var typed = value('og_image');
    var https = null;
    if (/^https:\\/\\/[^\\/?#\\s]/i.test(typed)) {
      try { https = new URL(typed).href; } catch (e) { https = null; }
    }
    var box = document.getElementById('social-card-image-box');
    var image = document.getElementById('social-card-image');
    if (https) {
      if (image.getAttribute('src') !== https) image.setAttribute('src', https);
      box.hidden = false;
    } else {
      image.removeAttribute('src');
      box.hidden = true;
    }
    document.getElementById('social-card-http').hidden = !(typed !== '' && !https && /^http:\\/\\//i.test(typed));
  }
  document.addEventListener('input', function (event) {
    var field = event.target;
    if (!(field instanceof Element) || !field.closest('.link-form')) return;
    if (['og_title', 'og_description', 'og_image', 'title'].indexOf(field.id) >= 0) drawSocialCard();
  });
  document.addEventListener('change', function (event) {
    if (event.target instanceof Element && event.target.id === 'domain_id') drawSocialCard();
  });
`

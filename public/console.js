/* global document, navigator, Element -- runs in the browser */
// The console's only script (served from our origin; the pages allow no inline script): copy buttons.
document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('[data-copy]') : null;
  if (!button) return;
  const source = document.getElementById(button.getAttribute('data-copy'));
  if (!source || !navigator.clipboard) return;
  navigator.clipboard.writeText(source.value ?? source.textContent).then(() => {
    button.textContent = 'Copied';
  });
});

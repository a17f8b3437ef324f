/* global document, window -- runs in the browser */
// The home page's only script (served from our origin; the pages allow no inline script). A scan takes a few
// seconds and the form's answer only comes when it is done, so while the browser waits the button is disabled
// (no second scan by a double click) and a status line counts the seconds. Without script the form still works.
const form = document.querySelector('form.scan-form');
const button = form && form.querySelector('button[type=submit]');
const status = document.getElementById('scan-progress');
let timer = null;

function reset() {
  if (!form) return;
  window.clearInterval(timer);
  delete form.dataset.busy;
  form.removeAttribute('aria-busy');
  button.disabled = false;
  button.textContent = button.dataset.idle;
  status.hidden = true;
  status.textContent = '';
}

if (form && button && status) {
  button.dataset.idle = button.textContent;
  form.addEventListener('submit', (event) => {
    if (form.dataset.busy) return void event.preventDefault();
    form.dataset.busy = 'true';
    form.setAttribute('aria-busy', 'true');
    button.disabled = true;
    button.textContent = 'Scanning…';
    const started = Date.now();
    const tick = () => {
      const seconds = Math.floor((Date.now() - started) / 1000);
      status.textContent = `Scanning your store: ${seconds} s so far. Most scans take 1 to 10 seconds; a slow store can take up to a minute. Keep this page open, the report opens by itself.`;
    };
    tick();
    status.hidden = false;
    timer = window.setInterval(tick, 1000);
  });
  // Back from the report, the browser may restore this page as it was left: busy. Make it usable again.
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) reset();
  });
}

// Posts a form marked data-auto-submit as soon as the page is ready (an answer on its way back
// to another site), or after the seconds its value gives (a launch tried again once the
// platform's keys are in); without JavaScript its button does the same.
const form = document.querySelector("form[data-auto-submit]");
if (form) {
  const seconds = Number(form.dataset.autoSubmit) || 0;
  window.setTimeout(() => form.submit(), seconds * 1000);
}

// Posts a form marked data-auto-submit as soon as the page is ready (an answer on its way back
// to another site); without JavaScript its button does the same.
document.querySelector("form[data-auto-submit]")?.submit();

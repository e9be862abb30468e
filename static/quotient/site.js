// Small behaviours of the site, kept out of the HTML so the Content-Security-Policy
// can forbid inline scripts.
document.addEventListener("DOMContentLoaded", () => {
  for (const field of document.querySelectorAll("[data-autosubmit]")) {
    field.addEventListener("change", () => field.form.submit());
  }
});

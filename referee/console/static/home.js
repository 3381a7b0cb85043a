// The console's list of shows: create a show through the JSON API (session + CSRF token).
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    const form = document.getElementById("new-show");
    if (!form) return;
    const csrf = document.getElementById("home").dataset.csrf;
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      const data = Object.fromEntries(new FormData(form));
      if (!data.pin) delete data.pin;
      fetch("/api/create_show", {
        method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
        body: JSON.stringify(data), credentials: "same-origin",
      }).then(function (r) { return r.json(); }).then(function (out) {
        if (out.ok) location.href = "/console/" + out.show.id;
        else {  // the message in words; the code for support in a tooltip
          const p = form.querySelector(".error");
          p.hidden = false;
          p.textContent = I18N.tr(out.error);
          p.title = out.error.code;
        }
      });
    });
  });
})();

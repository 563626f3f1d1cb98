// Study rhythm: reminders on this device. Asks the browser's permission, subscribes at its push
// service with the portal's public key and hands the subscription to the portal (with the form
// token). Without JavaScript, or in a browser without push, the section says so instead.
(function () {
  "use strict";
  var box = document.querySelector("[data-push]");
  if (!box || !("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return;
  box.hidden = false;
  var button = box.querySelector("[data-push-start]");
  var status = box.querySelector("[data-push-status]");
  function say(name) { status.textContent = box.getAttribute("data-" + name) || ""; }
  function bytes(base64url) {
    var text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((base64url.length + 3) % 4));
    var out = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
    return out;
  }
  button.addEventListener("click", function () {
    button.disabled = true;
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") {
        say("denied");
        button.disabled = false;
        return null;
      }
      return navigator.serviceWorker.register("/sw.js").then(function () { return navigator.serviceWorker.ready; }).then(function (registration) {
        return fetch("/api/push/key", { credentials: "same-origin" }).then(function (response) {
          if (!response.ok) throw new Error("no key");
          return response.json();
        }).then(function (body) {
          return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes(body.publicKey) });
        });
      }).then(function (subscription) {
        return fetch("/api/push/subscriptions", {
          method: "POST", credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-CSRF-Token": box.getAttribute("data-csrf") },
          body: JSON.stringify(subscription)
        });
      }).then(function (response) {
        if (!response.ok) throw new Error("refused");
        say("on");
      });
    }).catch(function () {
      say("failed");
      button.disabled = false;
    });
  });
})();

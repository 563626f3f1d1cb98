// 1EdTech's client-side postMessage storage (the platform's `lti_storage_target`), for LTI
// launches inside an LMS's frame in a browser that drops the portal's cookie there. At the
// login, the state is put into the platform's storage before the page goes on to the platform;
// at the launch, the portal's page asks the platform's storage for it and posts the launch on
// only when it is there — which it is only in the browser that began the login. Messages go to
// the platform's origin alone, and only its answers are read.
(() => {
  const element = document.querySelector("[data-lti-storage]");
  if (!element) return;
  const { ltiStorage: action, target, origin, key, value, next } = element.dataset;
  let frame = null;
  try {
    frame = target === "_parent" ? window.parent : window.parent.frames[target];
  } catch (error) {
    frame = null;
  }
  const messageID = "portal-" + Math.random().toString(36).slice(2) + Date.now().toString(36);

  // Sends one message to the platform's storage; `then` gets its answer, or null after two
  // seconds without one (no storage, another origin, a top-level window).
  function ask(message, then) {
    if (!frame || frame === window || !origin) {
      then(null);
      return;
    }
    const listen = (event) => {
      if (event.origin !== origin || !event.data || event.data.message_id !== messageID) return;
      window.clearTimeout(timer);
      window.removeEventListener("message", listen);
      then(event.data);
    };
    const timer = window.setTimeout(() => {
      window.removeEventListener("message", listen);
      then(null);
    }, 2000);
    window.addEventListener("message", listen);
    frame.postMessage(Object.assign({ message_id: messageID }, message), origin);
  }

  if (action === "put") {
    ask({ subject: "lti.put_data", key, value }, () => window.location.replace(next));
  } else if (action === "get") {
    ask({ subject: "lti.get_data", key }, (answer) => {
      if (answer && !answer.error && answer.value === value) {
        element.submit();
      } else {
        const refused = document.querySelector("[data-lti-storage-refused]");
        if (refused) refused.hidden = false;
        const waiting = document.querySelector("[data-lti-storage-waiting]");
        if (waiting) waiting.hidden = true;
      }
    });
  }
})();

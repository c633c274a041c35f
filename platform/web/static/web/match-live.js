// A match page watched live follows the match around the viewer too: when the viewer
// says the match ended, the page is read again for its status, the seats' places and
// rating changes, and the replay's downloads, which replace the ones shown.

const viewer = document.querySelector(".tavolo-viewer[data-live-url]");

async function refreshAroundViewer() {
  const response = await fetch(window.location.pathname, {
    credentials: "same-origin",
    cache: "no-store",
  });
  if (!response.ok) return;
  const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
  for (const id of ["match-facts", "match-record"]) {
    const shown = document.getElementById(id);
    const read = fresh.getElementById(id);
    if (shown && read) shown.replaceWith(document.adoptNode(read));
  }
  document.getElementById("live-note")?.remove();
}

if (viewer) viewer.addEventListener("tavolo-viewer:finished", refreshAroundViewer, { once: true });

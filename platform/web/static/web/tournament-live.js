// A running tournament's page: every data-seconds, asks data-live-url whether its standings
// and schedule changed (by data-stamp) and swaps in the new ones; once the tournament is no
// longer running, reloads the page once for its final state. Polls only while visible.
const root = document.getElementById("tournament-live");

async function poll() {
  const url = new URL(root.dataset.liveUrl, window.location.href);
  url.searchParams.set("stamp", root.dataset.stamp);
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  if (!response.ok) return true;
  const answer = await response.json();
  if (answer.status !== "running") {
    window.location.reload();
    return false;
  }
  if (answer.html !== undefined) {
    root.innerHTML = answer.html;
    root.dataset.stamp = answer.stamp;
  }
  return true;
}

function schedule() {
  window.setTimeout(async () => {
    let again = true;
    if (!document.hidden) {
      try {
        again = await poll();
      } catch {
        // Offline for a moment: try again at the next turn.
      }
    }
    if (again) schedule();
  }, Number(root.dataset.seconds) * 1000);
}

if (root?.dataset.liveUrl) schedule();

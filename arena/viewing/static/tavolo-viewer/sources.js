// Where the viewer's data comes from: the URLs on the mounting element.

/** The URLs a mounting element offers (see docs/viewer.md). */
export function sourcesOf(root) {
  const data = root.dataset;
  return {
    frames: data.framesUrl || null,
    public: data.publicFramesUrl || null,
    seat: data.seatFramesUrl || null,
    logs: data.logsUrl || null,
    live: data.liveUrl || null,
  };
}

/** The frames URL of a view ("full", "public" or a seat number), or null. */
export function viewUrl(sources, view) {
  if (view === "full") return sources.frames;
  if (view === "public") return sources.public;
  return sources.seat ? sources.seat.replace("{seat}", encodeURIComponent(view)) : null;
}

/** GET a JSON document; throws an Error naming the status when it fails. */
export async function getJson(url) {
  const response = await fetch(url, {
    credentials: "same-origin",
    headers: { Accept: "application/json" },
    cache: "no-store",
  });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
  return response.json();
}

/** The live URL asking for the steps from event `next` on. */
export function liveUrlFrom(live, next) {
  const url = new URL(live, document.baseURI);
  url.searchParams.set("since", String(next));
  return url.toString();
}

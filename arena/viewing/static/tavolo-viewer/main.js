// Entry point: mounts a viewer on every <div class="tavolo-viewer"> of the page.

import { Viewer } from "./viewer.js";

function addStylesheet() {
  const href = new URL("./viewer.css", import.meta.url).toString();
  if ([...document.styleSheets].some((sheet) => sheet.href === href)) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  document.head.append(link);
}

function mountAll() {
  addStylesheet();
  document.querySelectorAll(".tavolo-viewer").forEach((root, position) => {
    if (root.dataset.mounted) return;
    root.dataset.mounted = "true";
    new Viewer(root, { followsHash: position === 0 }).start();
  });
}

mountAll();

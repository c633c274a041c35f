// The match page's transcript, one event at a time: Back, Next and Show all.
const items = document.querySelectorAll("#events li");
const count = document.getElementById("step-count");
let shown = Math.min(1, items.length);

function draw() {
  items.forEach((item, index) => { item.hidden = index >= shown; });
  count.textContent = `${shown} / ${items.length} events`;
}

document.getElementById("step-back").addEventListener("click", () => { shown = Math.max(1, shown - 1); draw(); });
document.getElementById("step-next").addEventListener("click", () => { shown = Math.min(items.length, shown + 1); draw(); });
document.getElementById("step-all").addEventListener("click", () => { shown = items.length; draw(); });
draw();

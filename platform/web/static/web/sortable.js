// Sortable tables: each <th data-sort="number|text"> of a table.sortable becomes a button
// that sorts the rows by that column (a cell's data-value, else its text); again reverses.
for (const table of document.querySelectorAll("table.sortable")) {
  const headers = [...table.tHead.rows[0].cells];
  headers.forEach((header, column) => {
    const kind = header.dataset.sort;
    if (!kind) return;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "sort";
    button.textContent = header.textContent;
    header.replaceChildren(button);
    button.addEventListener("click", () => sortBy(table, headers, column, kind));
  });
}

function cellValue(row, column, kind) {
  const cell = row.cells[column];
  const raw = cell.dataset.value ?? cell.textContent.trim();
  return kind === "number" ? Number.parseFloat(raw) : raw.toLowerCase();
}

function sortBy(table, headers, column, kind) {
  const header = headers[column];
  const ascending = header.getAttribute("aria-sort") !== "ascending";
  for (const other of headers) other.removeAttribute("aria-sort");
  header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
  const body = table.tBodies[0];
  const rows = [...body.rows].filter((row) => row.cells.length === headers.length);
  rows.sort((a, b) => {
    const x = cellValue(a, column, kind);
    const y = cellValue(b, column, kind);
    const order = x < y ? -1 : x > y ? 1 : 0;
    return ascending ? order : -order;
  });
  body.append(...rows);
}

"""The site's views, one module per area."""

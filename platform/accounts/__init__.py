"""User accounts: Django's users, the personal API token and the system user."""

"""The HTML pages: home, ladders, bots, matches, accounts and the explanations."""

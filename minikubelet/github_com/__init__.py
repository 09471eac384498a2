"""Go modules hosted on github.com, at their import paths."""

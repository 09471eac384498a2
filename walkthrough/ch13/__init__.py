"""Chapter 13 of the walkthrough: its example and exercises (see chapter.yaml)."""

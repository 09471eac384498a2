"""Chapter 6 of the walkthrough: its example and exercises (see chapter.yaml)."""

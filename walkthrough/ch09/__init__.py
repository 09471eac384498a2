"""Chapter 9 of the walkthrough: its example and exercises (see chapter.yaml)."""

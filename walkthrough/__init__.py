"""Chapter examples and exercises for minikubelet, with their runner (``python -m walkthrough``)."""

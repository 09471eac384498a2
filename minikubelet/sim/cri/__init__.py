"""An in-memory runtime behind the CRI (not a port: a stand-in for containerd).

* [`fake_runtime`][.fake_runtime] and [`fake_image_service`][.fake_image_service] — containers that
live as a *scenario*
  says, and images that pull as it says;
* [`scenario`][.scenario] — the scenario format.
"""

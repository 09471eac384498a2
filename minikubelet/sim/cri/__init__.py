"""An in-memory runtime behind the CRI (not a port: a stand-in for containerd).

* :mod:`.fake_runtime` and :mod:`.fake_image_service` — containers that live as a *scenario*
  says, and images that pull as it says;
* :mod:`.scenario` — the scenario format.
"""

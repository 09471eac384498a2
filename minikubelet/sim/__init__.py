"""Our simulation: what the port needs to run that is not kubelet's code."""
